import { afterAll, beforeAll, expect, test } from 'vitest';
import { matchStats } from '../../src/core/matches/match-stats.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { createItem, createMatch, createMonitor, createUser } from '../support/factories.ts';
import { createTestDatabase } from '../support/test-database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const localDate = (instant: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(instant);

// The days of the stats must be the days Intl (and so the browser and the emails) sees in the
// user's zone, whatever its spelling: an IANA name or a fixed offset such as "+05:00", which
// PostgreSQL would read as a POSIX zone, west of Greenwich, if handed over as it is.
test.each(['+05:00', '-03:30', '+0530', 'Asia/Kolkata', 'America/St_Johns', 'UTC'])(
  'matches per day follow the user’s time zone %s',
  async (timezone) => {
    const { db } = database;
    const user = await createUser(db, { timezone });
    const monitor = await createMonitor(db, { userId: user.id });
    const now = Date.now();
    // Every 47 minutes over the last three days, so every local midnight has matches both sides.
    const instants = Array.from({ length: 90 }, (_, k) => new Date(now - 60_000 - k * 47 * 60_000));
    for (const matchedAt of instants) {
      const item = await createItem(db);
      await createMatch(db, { monitor, item, matchedAt });
    }
    const days = 2;
    const today = localDate(new Date(), timezone);
    const first = new Date(Date.parse(`${today}T00:00:00Z`) - (days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const expected = new Map<string, number>();
    for (const instant of instants) {
      const date = localDate(instant, timezone);
      if (date >= first) expected.set(date, (expected.get(date) ?? 0) + 1);
    }
    const stats = await matchStats({ db }, { userId: user.id, days });
    expect(stats.timezone).toBe(timezone);
    expect(stats.days).toEqual(
      [...expected]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([date, count]) => ({ date, monitorId: monitor.id, count })),
    );
  },
);
