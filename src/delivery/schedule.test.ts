import { expect, test } from 'vitest';
import { dueAt, localDay, nextLocalHour, nextLocalTime } from './schedule.ts';

const iso = (value: string) => new Date(value);

test('daily is due at the next 08:00 on the user’s wall clock', () => {
  expect(nextLocalTime(iso('2026-06-10T05:00:00Z'), 'Europe/Paris', 8).toISOString()).toBe(
    '2026-06-10T06:00:00.000Z',
  );
  expect(nextLocalTime(iso('2026-06-10T06:00:00Z'), 'Europe/Paris', 8).toISOString()).toBe(
    '2026-06-11T06:00:00.000Z',
  );
  expect(nextLocalTime(iso('2026-06-10T12:00:00Z'), 'Asia/Tokyo', 8).toISOString()).toBe(
    '2026-06-10T23:00:00.000Z',
  );
  expect(nextLocalTime(iso('2026-06-10T12:00:00Z'), 'Asia/Kolkata', 8).toISOString()).toBe(
    '2026-06-11T02:30:00.000Z',
  );
});

test('daily follows the wall clock across a DST change', () => {
  // New York leaves DST on 1 November 2026: 08:00 is 12:00 UTC before, 13:00 UTC after.
  expect(nextLocalTime(iso('2026-10-31T12:30:00Z'), 'America/New_York', 8).toISOString()).toBe(
    '2026-11-01T13:00:00.000Z',
  );
  // And enters it on 8 March 2026: 08:00 EST is 13:00 UTC, 08:00 EDT is 12:00 UTC.
  expect(nextLocalTime(iso('2026-03-07T14:00:00Z'), 'America/New_York', 8).toISOString()).toBe(
    '2026-03-08T12:00:00.000Z',
  );
});

test('hourly is due at the next full hour of the local clock', () => {
  expect(nextLocalHour(iso('2026-06-10T10:20:00Z'), 'UTC').toISOString()).toBe(
    '2026-06-10T11:00:00.000Z',
  );
  expect(nextLocalHour(iso('2026-06-10T10:20:00Z'), 'Asia/Kolkata').toISOString()).toBe(
    '2026-06-10T10:30:00.000Z',
  );
  expect(nextLocalHour(iso('2026-06-10T11:00:00Z'), 'Europe/Paris').toISOString()).toBe(
    '2026-06-10T12:00:00.000Z',
  );
});

test('instant is due one batch window after the first match', () => {
  const since = iso('2026-06-10T10:00:00Z');
  expect(
    dueAt({
      mode: 'instant',
      pendingSince: since,
      timeZone: 'UTC',
      batchSeconds: 60,
    }).toISOString(),
  ).toBe('2026-06-10T10:01:00.000Z');
});

test('the cap day is the local calendar day', () => {
  expect(localDay(iso('2026-06-10T23:30:00Z'), 'Asia/Tokyo')).toBe('2026-06-11');
  expect(localDay(iso('2026-06-10T23:30:00Z'), 'America/Los_Angeles')).toBe('2026-06-10');
});
