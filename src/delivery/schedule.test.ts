import { expect, test } from 'vitest';
import { dueAt, localDay, nextLocalHour, nextLocalTime, quietUntil } from './schedule.ts';

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

test('weekly is due at the next Monday 08:00 on the wall clock, across a DST change in a half-hour zone', () => {
  // Adelaide moves from +09:30 to +10:30 on Sunday 4 October 2026.
  const weekly = (since: string) =>
    dueAt({
      mode: 'weekly',
      pendingSince: iso(since),
      timeZone: 'Australia/Adelaide',
      batchSeconds: 60,
    }).toISOString();
  // Friday 2 October, 12:00 local (+09:30) → Monday 5 October 08:00 local (+10:30).
  expect(weekly('2026-10-02T02:30:00Z')).toBe('2026-10-04T21:30:00.000Z');
  // Monday 08:00 itself is past: the next Monday.
  expect(weekly('2026-10-04T21:30:00Z')).toBe('2026-10-11T21:30:00.000Z');
  // Monday 07:59: the same morning.
  expect(weekly('2026-10-04T21:29:00Z')).toBe('2026-10-04T21:30:00.000Z');
});

test('quiet hours hold until they end on the wall clock; none outside them', () => {
  const quiet = { start: '22:00', end: '07:00' };
  // Kolkata +05:30: 23:00 local is 17:30 UTC; the end, 07:00, is 01:30 UTC the next day.
  expect(quietUntil(iso('2026-06-10T17:30:00Z'), 'Asia/Kolkata', quiet)?.toISOString()).toBe(
    '2026-06-11T01:30:00.000Z',
  );
  // 06:59 local: one minute left.
  expect(quietUntil(iso('2026-06-11T01:29:00Z'), 'Asia/Kolkata', quiet)?.toISOString()).toBe(
    '2026-06-11T01:30:00.000Z',
  );
  expect(quietUntil(iso('2026-06-11T01:30:00Z'), 'Asia/Kolkata', quiet)).toBeNull();
  expect(quietUntil(iso('2026-06-10T12:00:00Z'), 'Asia/Kolkata', quiet)).toBeNull();
  expect(quietUntil(iso('2026-06-10T12:00:00Z'), 'Asia/Kolkata', null)).toBeNull();
  // A span within one day, and the night Adelaide's clocks go forward (02:00 → 03:00).
  const lunch = { start: '12:00', end: '13:30' };
  expect(quietUntil(iso('2026-06-10T12:15:00Z'), 'UTC', lunch)?.toISOString()).toBe(
    '2026-06-10T13:30:00.000Z',
  );
  // Sunday 4 October 01:00 local (+09:30) is 15:30 UTC on the 3rd; 07:00 local (+10:30) is 20:30 UTC.
  expect(quietUntil(iso('2026-10-03T15:30:00Z'), 'Australia/Adelaide', quiet)?.toISOString()).toBe(
    '2026-10-03T20:30:00.000Z',
  );
});
