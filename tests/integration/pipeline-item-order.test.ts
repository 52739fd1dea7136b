import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { testItem } from '../support/feed.ts';
import { describeServer } from '../support/server-database.ts';

// On the PostgreSQL server, where stores run in parallel transactions (sources at once, a leader
// handing over): a matcher shard moves its cursor past every item id it reads, so an item whose
// transaction took a lower id but committed later must not be passed over.

describeServer('item order on the PostgreSQL server', (server) => {
  let other: DatabaseHandle;
  beforeAll(async () => {
    // A second process's connections to the same database.
    other = await openDatabase({ databaseUrl: server().url });
  });
  afterAll(async () => {
    await other?.close();
  });

  const USER = '00000000-0000-4000-8000-0000000000c1';

  test('a store still in flight holds back later stores, so the matcher never skips its item', async () => {
    const { db } = server().handle;
    await db.insert(users).values({ id: USER, email: 'order@example.com' });
    await db.insert(monitors).values({ userId: USER, query: 'postgres' });
    const index = await loadMonitorIndex(db);
    const events = new MatchEvents();

    // The other process's store, held open before its commit: it has taken its turn and its
    // item's id. Its transaction wraps the real store, so it holds whatever the store holds.
    let commit = () => {};
    const committing = new Promise<void>((resolve) => {
      commit = resolve;
    });
    let storedFirst = () => {};
    const firstStored = new Promise<void>((resolve) => {
      storedFirst = resolve;
    });
    const first = other.db.transaction(async (tx) => {
      await storeItems(tx, {
        source: 'hackernews',
        items: [testItem({ externalId: 'first', title: 'postgres first' })],
      });
      storedFirst();
      await committing;
    });
    try {
      await firstStored;
      let settled = false;
      const later = storeItems(db, {
        source: 'lobsters',
        items: [testItem({ source: 'lobsters', externalId: 'second', title: 'postgres second' })],
      }).finally(() => {
        settled = true;
      });
      // Either the later store waits on a lock (its turn) or, without one, it commits at once.
      while (!settled && !(await someoneWaitsOnALock(db))) await sleep(10);
      expect(settled, 'the later store finished while an earlier one was in flight').toBe(false);

      await matchNewItems({ db, index, events });
      commit();
      await first;
      await later;
    } finally {
      commit();
      await first.catch(() => {});
    }
    while ((await matchNewItems({ db, index, events })).more);
    const made = await db.select({ externalId: matches.externalId }).from(matches);
    expect(made.map((m) => m.externalId).sort()).toEqual(['first', 'second']);
  });
});

async function someoneWaitsOnALock(db: DatabaseHandle['db']): Promise<boolean> {
  const rows = rowsOf<{ waiting: boolean }>(
    await db.execute(sql`select exists (
      select 1 from pg_locks l join pg_stat_activity a on a.pid = l.pid
      where not l.granted and a.datname = current_database()) as waiting`),
  );
  return rows[0]?.waiting === true;
}
