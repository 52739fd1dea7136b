import { expect, test } from 'vitest';
import { isTimeZone, updateUserBodySchema } from './user.ts';

test('isTimeZone accepts IANA zones and refuses the rest', () => {
  for (const zone of ['UTC', 'Europe/Paris', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata']) {
    expect(isTimeZone(zone), zone).toBe(true);
  }
  for (const zone of ['', 'Mars/Base', 'Europe/', '../../etc/passwd', 'x'.repeat(65)]) {
    expect(isTimeZone(zone), zone).toBe(false);
  }
});

test('the PUT body takes a non-empty subset of the editable fields', () => {
  expect(updateUserBodySchema.parse({ firstName: ' Ada ', emailAlerts: 'daily' })).toEqual({
    firstName: 'Ada',
    emailAlerts: 'daily',
  });
  expect(updateUserBodySchema.safeParse({}).success).toBe(false);
  expect(updateUserBodySchema.safeParse({ id: 'x' }).success).toBe(false);
  expect(updateUserBodySchema.safeParse({ emailAlerts: 'weekly' }).success).toBe(false);
});
