import type { QuietHours } from '../shared/user.ts';

/** How often a batch goes out: the user's email modes, and `weekly` for a monitor's rhythm. */
export type Rhythm = 'instant' | 'hourly' | 'daily' | 'weekly';

/**
 * When a batch of waiting matches is due, per alert mode (docs/product.md, "Delivery"): `instant`
 * a batch window after the first match was seen, `hourly` at the next full hour, `daily` at
 * the next 08:00 and `weekly` at the next Monday 08:00, all on the user's wall clock (so a
 * half-hour zone gets its digest at :30 UTC and a DST change moves the daily email with the clock
 * on the wall, not with UTC).
 */
export function dueAt(input: {
  mode: Rhythm;
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
    case 'weekly': {
      let next = nextLocalTime(input.pendingSince, input.timeZone, DAILY_HOUR);
      while (localWeekday(next, input.timeZone) !== MONDAY) {
        next = nextLocalTime(next, input.timeZone, DAILY_HOUR);
      }
      return next;
    }
  }
}

const MONDAY = 1;

/** The local day of the week at `instant`, 0 (Sunday) to 6. */
function localWeekday(instant: Date, timeZone: string): number {
  const { year, month, day } = localParts(instant, timeZone);
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

const minutesOf = (clock: string): number => {
  const [hours, minutes] = clock.split(':').map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
};

/**
 * When the quiet hours around `instant` end, on the user's wall clock; null when `instant` is
 * not in them. A span whose end is earlier than its start runs overnight ("22:00" to "07:00").
 */
export function quietUntil(instant: Date, timeZone: string, quiet: QuietHours): Date | null {
  if (!quiet) return null;
  const local = localParts(instant, timeZone);
  const now = local.hour * 60 + local.minute;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const inside = start < end ? now >= start && now < end : now >= start || now < end;
  if (!inside) return null;
  return nextLocalTime(instant, timeZone, Math.floor(end / 60), end % 60);
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
function fromLocal(timeZone: string, y: number, m: number, d: number, h: number, minute = 0): Date {
  const wall = Date.UTC(y, m - 1, d, h, minute);
  let guess = wall - offsetAt(new Date(wall), timeZone);
  guess = wall - offsetAt(new Date(guess), timeZone);
  return new Date(guess);
}

/** The first instant after `after` at which the local clock shows `hour`:`minute`. */
export function nextLocalTime(after: Date, timeZone: string, hour: number, minute = 0): Date {
  const today = localParts(after, timeZone);
  const candidate = fromLocal(timeZone, today.year, today.month, today.day, hour, minute);
  if (candidate.getTime() > after.getTime()) return candidate;
  const tomorrow = new Date(Date.UTC(today.year, today.month - 1, today.day + 1));
  return fromLocal(
    timeZone,
    tomorrow.getUTCFullYear(),
    tomorrow.getUTCMonth() + 1,
    tomorrow.getUTCDate(),
    hour,
    minute,
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
