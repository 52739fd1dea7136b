import type { EmailAlertMode } from '../shared/user.ts';

/**
 * When a batch of waiting matches is due, per alert mode (docs/product.md, "Delivery"): `instant`
 * a batch window after the first match was seen, `hourly` at the next full hour and `daily` at
 * the next 08:00, both on the user's wall clock (so a half-hour zone gets its digest at :30 UTC
 * and a DST change moves the daily email with the clock on the wall, not with UTC).
 */
export function dueAt(input: {
  mode: Exclude<EmailAlertMode, 'off'>;
  pendingSince: Date;
  timeZone: string;
  batchSeconds: number;
}): Date {
  switch (input.mode) {
    case 'instant':
      return new Date(input.pendingSince.getTime() + input.batchSeconds * 1000);
    case 'hourly':
      return nextLocalHour(input.pendingSince, input.timeZone);
    case 'daily':
      return nextLocalTime(input.pendingSince, input.timeZone, DAILY_HOUR);
  }
}

export const DAILY_HOUR = 8;

type LocalParts = { year: number; month: number; day: number; hour: number; minute: number };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let found = formatters.get(timeZone);
  if (!found) {
    found = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, found);
  }
  return found;
}

/** The wall-clock date and time in `timeZone` at `instant`. */
export function localParts(instant: Date, timeZone: string): LocalParts {
  const parts: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(instant)) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  return {
    year: parts.year ?? 1970,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
  };
}

/** The user's local calendar day at `instant`, `YYYY-MM-DD` (the daily cap's day). */
export function localDay(instant: Date, timeZone: string): string {
  const { year, month, day } = localParts(instant, timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Milliseconds `timeZone` is ahead of UTC at `instant`. */
function offsetAt(instant: Date, timeZone: string): number {
  const p = localParts(instant, timeZone);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute);
  return asUtc - Math.floor(instant.getTime() / 60_000) * 60_000;
}

/**
 * The instant the wall clock in `timeZone` shows the given time. Two passes settle the offset
 * around a DST change; a time skipped by the change lands just after it.
 */
function fromLocal(timeZone: string, y: number, m: number, d: number, h: number): Date {
  const wall = Date.UTC(y, m - 1, d, h);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** The first instant after `after` at which the local clock shows `hour`:00. */
export function nextLocalTime(after: Date, timeZone: string, hour: number): Date {
  const today = localParts(after, timeZone);
  const candidate = fromLocal(timeZone, today.year, today.month, today.day, hour);
  if (candidate.getTime() > after.getTime()) return candidate;
  const tomorrow = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
  return fromLocal(
    timeZone,
    tomorrow.getUTCFullYear(),
    tomorrow.getUTCMonth() + 1,
    tomorrow.getUTCDate(),
    hour,
  );
}

/** The first instant after `after` at which the local clock shows a full hour. */
export function nextLocalHour(after: Date, timeZone: string): Date {
  const offset = offsetAt(after, timeZone);
  const local = after.getTime() + offset;
  const nextLocal = Math.floor(local / 3_600_000) * 3_600_000 + 3_600_000;
  const next = nextLocal - offset;
  // An offset change inside the hour (a DST change) keeps the hour boundary in UTC terms.
  return new Date(next > after.getTime() ? next : next + 3_600_000);
}
