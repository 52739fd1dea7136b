import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { matchStats } from '../../src/core/matches/match-stats.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { users } from '../../src/db/schema/users.ts';
import { createItem, createMatch, createMonitor, createUser } from '../support/factories.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Stats count each match on the day it fell in the user's time zone: checked against the
// browser's own calendar (Intl) for zones with half and quarter hours, daylight saving and the
// date line, over instants spread across the window and just outside it.
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(() => handle.close());

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Asia/Kolkata',
  'Asia/Kathmandu',
  'Australia/Lord_Howe',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
];
const DAY_MS = 86_400_000;

const HOUR_MS = 3_600_000;
const formats = new Map(
  ZONES.map((timeZone) => [
    timeZone,
    new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }),
  ]),
);

function localDate(at: Date, timeZone: string): string {
  return formats.get(timeZone)?.format(at) ?? '';
}

test('each match counts on its day in the user’s time zone, within the window only', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...ZONES),
      fc.integer({ min: 1, max: 40 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 45 * DAY_MS }), fc.boolean()), {
        minLength: 1,
        maxLength: 25,
      }),
      async (timezone, days, offsets) => {
        const user = await createUser(handle.db, { timezone });
        const monitors = [
          await createMonitor(handle.db, { userId: user.id }),
          await createMonitor(handle.db, { userId: user.id }),
        ];
        const now = Date.now();
        const expected = new Map<string, number>();
        // The window: today and the `days - 1` calendar days before it, in the zone (found an
        // hour at a time: a day there may last 23 or 25 hours).
        const dates = new Set<string>();
        for (let back = 0; back < (days + 2) * 24; back++) {
          dates.add(localDate(new Date(now - back * HOUR_MS), timezone));
        }
        const window = [...dates].sort().slice(-days);
        for (const [offset, second] of offsets) {
          const at = new Date(now - offset);
          const monitor = monitors[second ? 1 : 0] as (typeof monitors)[number];
          const item = await createItem(handle.db);
          await createMatch(handle.db, { monitor, item, matchedAt: at });
          const date = localDate(at, timezone);
          if (!window.includes(date)) continue;
          const key = `${date} ${monitor.id}`;
          expected.set(key, (expected.get(key) ?? 0) + 1);
        }
        const stats = await matchStats({ db: handle.db }, { userId: user.id, days });
        expect(stats.timezone).toBe(timezone);
        expect(
          new Map(stats.days.map((day) => [`${day.date} ${day.monitorId}`, day.count])),
        ).toEqual(expected);
        await handle.db.delete(matches).where(eq(matches.userId, user.id));
        await handle.db.delete(users).where(eq(users.id, user.id));
      },
    ),
    { numRuns: 40 },
  );
});
