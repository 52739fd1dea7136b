import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { items, matchCursors } from '../../src/db/schema/items.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { monitorChanges, monitors } from '../../src/db/schema/monitors.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { pruneOnce } from '../../src/pipeline/prune.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { createMonitor, createUser } from '../support/factories.ts';
import { testItem } from '../support/feed.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Retention (src/pipeline/prune.ts): items older than RETENTION_DAYS go once every shard of the
// current configuration has matched them; their matches stay; old monitor_changes rows go.
// On PGlite, and on the PostgreSQL server when DATABASE_URL names one.

const DAY = 86_400_000;
const SHARDS = ['0/2', '1/2'];
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});
// One database for the file, emptied before each test.
beforeEach(async () => {
  await handle.db.execute(
    sql`truncate items, matches, monitors, users, match_cursors, monitor_changes cascade`,
  );
});

/** Stores one item per age (days before now) on Hacker News; returns their external ids. */
async function storeAged(...ages: number[]): Promise<string[]> {
  const aged = ages.map((days) =>
    testItem({
      title: `pruning story ${days}`,
      createdAt: new Date(Date.now() - days * DAY).toISOString(),
    }),
  );
  await storeItems(handle.db, { source: 'hackernews', items: aged });
  return aged.map((item) => item.externalId);
}

/** Every shard of SHARDS matches what is stored, as the workers do. */
async function matchEveryShard(): Promise<void> {
  for (const [index, count] of [
    [0, 2],
    [1, 2],
  ] as const) {
    const shard = { index, count };
    const shardIndex = await loadMonitorIndex(handle.db, shard);
    const deps = { db: handle.db, index: shardIndex, events: new MatchEvents(), shard };
    while ((await matchNewItems(deps)).more);
  }
}

async function storedItems(): Promise<string[]> {
  const rows = await handle.db.select({ externalId: items.externalId }).from(items);
  return rows.map((row) => row.externalId).sort();
}

test('items past the retention that every shard has matched are deleted; newer ones stay; their matches stay', async () => {
  const user = await createUser(handle.db);
  await createMonitor(handle.db, { userId: user.id, query: 'pruning' });
  const [old1, old2, recent] = await storeAged(40, 31, 29);
  await matchEveryShard();
  expect(await handle.db.$count(matches)).toBe(3);

  expect(await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS })).toEqual({
    items: 2,
    changes: 0,
  });
  expect(await storedItems()).toEqual([recent]);
  const kept = await handle.db.select({ externalId: matches.externalId }).from(matches);
  expect(kept.map((row) => row.externalId).sort()).toEqual([old1, old2, recent].sort());
  expect(await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS })).toEqual({
    items: 0,
    changes: 0,
  });
});

test('an old item a shard has not matched yet is kept until it has', async () => {
  await storeAged(60);
  await matchEveryShard();
  const [second] = await storeAged(50);
  // Shard 1/2 has passed the second item, shard 0/2 not yet.
  const [row] = await handle.db
    .select({ id: items.id })
    .from(items)
    .where(eq(items.externalId, second as string));
  await handle.db
    .update(matchCursors)
    .set({ lastItemId: row?.id as number })
    .where(eq(matchCursors.shard, '1/2'));

  expect((await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS })).items).toBe(1);
  expect(await storedItems()).toEqual([second]);
  await matchEveryShard();
  expect((await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS })).items).toBe(1);
  expect(await storedItems()).toEqual([]);
});

test('nothing is pruned while a shard of the configuration has no cursor (shards just changed)', async () => {
  await storeAged(90, 80);
  // Matched under the previous configuration, one shard: its cursor does not count.
  const index = await loadMonitorIndex(handle.db);
  await matchNewItems({ db: handle.db, index, events: new MatchEvents() });
  expect(await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS })).toEqual({
    items: 0,
    changes: 0,
  });
  expect(await pruneOnce(handle.db, { retentionDays: 30, shards: ['0/1'] })).toEqual({
    items: 2,
    changes: 0,
  });
});

test('a large backlog goes in batches, every one of them', async () => {
  await storeAged(...Array.from({ length: 11 }, (_, i) => 31 + i));
  await matchEveryShard();
  expect(await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS, batch: 3 })).toEqual({
    items: 11,
    changes: 0,
  });
  expect(await storedItems()).toEqual([]);
});

test('monitor_changes rows older than the keep time are deleted, newer ones kept', async () => {
  const user = await createUser(handle.db);
  const monitor = await createMonitor(handle.db, { userId: user.id, query: 'pruning' });
  await handle.db.update(monitors).set({ query: 'pruned' }).where(eq(monitors.id, monitor.id));
  await handle.db.update(monitors).set({ paused: true }).where(eq(monitors.id, monitor.id));
  const changes = await handle.db.select({ id: monitorChanges.id }).from(monitorChanges);
  expect(changes).toHaveLength(3);
  // The first two were written two hours ago.
  const [a, b] = changes.map((change) => change.id).sort((x, y) => x - y);
  await handle.db.execute(
    sql`update monitor_changes set at = now() - interval '2 hours' where id in (${a}, ${b})`,
  );

  expect(
    await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS, changesKeepMs: 3_600_000 }),
  ).toEqual({ items: 0, changes: 2 });
  expect(await handle.db.$count(monitorChanges)).toBe(1);
});

test('an aborted prune stops before deleting', async () => {
  await storeAged(45);
  await matchEveryShard();
  const aborted = AbortSignal.abort();
  expect(await pruneOnce(handle.db, { retentionDays: 30, shards: SHARDS }, aborted)).toEqual({
    items: 0,
    changes: 0,
  });
  expect(await storedItems()).toHaveLength(1);
});
