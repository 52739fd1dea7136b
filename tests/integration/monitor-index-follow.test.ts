import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseConfig } from '../../src/config/env.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { type MonitorIndex, shardOf } from '../../src/matcher/monitor-index.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { MonitorFollower } from '../../src/pipeline/follow-monitors.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { startWorker, type Worker } from '../../src/pipeline/worker.ts';
import type { SourceName } from '../../src/shared/sources.ts';
import { testItem } from '../support/feed.ts';
import { waitFor } from '../support/ingest-harness.ts';
import { silentLogger } from '../support/silent-logger.ts';
import { createTestDatabase } from '../support/test-database.ts';

// A worker's in-memory index follows every create, edit, pause, resume, change of sources and
// delete of a monitor (monitor_changes, kept by a trigger). The index itself is asked what it
// holds: stored matches cannot tell, since storing a match reads the monitor again and drops
// one paused or deleted since.

const USER = '00000000-0000-4000-8000-0000000000d1';
let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insert(users).values({ id: USER, email: 'follow@example.com' });
});
afterAll(async () => {
  await handle.close();
});

async function createMonitor(query: string, values: { id?: string; sources?: SourceName[] } = {}) {
  const [created] = await handle.db
    .insert(monitors)
    .values({ userId: USER, query, ...values })
    .returning({ id: monitors.id });
  if (!created) throw new Error('no monitor created');
  return created.id;
}

function updateMonitor(id: string, set: Partial<typeof monitors.$inferInsert>) {
  return handle.db.update(monitors).set(set).where(eq(monitors.id, id));
}

describe('the follower of one index', () => {
  /** Who in `index` matches a post titled `title` on `source`, sorted. */
  const hits = (index: MonitorIndex, title: string, source: SourceName = 'hackernews') =>
    index
      .match({ source, title })
      .map((hit) => hit.monitorId)
      .sort();

  test('loads the active monitors, then applies each change when asked, and only then', async () => {
    const aardvark = await createMonitor('aardvark');
    const dormant = await createMonitor('aardvark burrow');
    await updateMonitor(dormant, { paused: true });
    let index: MonitorIndex | undefined;
    const follower = new MonitorFollower(
      handle.db,
      () => {
        if (!index) throw new Error('applied before the load');
        return index;
      },
      silentLogger,
    );
    await follower.start();
    index = await loadMonitorIndex(handle.db);
    expect(hits(index, 'An aardvark burrow')).toEqual([aardvark]);

    const zebra = await createMonitor('zebra');
    const crossing = await createMonitor('zebra crossing');
    const okapi = await createMonitor('okapi');
    expect(hits(index, 'A zebra crossing, an okapi')).toEqual([]);
    await follower.apply();
    expect(hits(index, 'A zebra crossing, an okapi')).toEqual([zebra, crossing, okapi].sort());
    expect(await follower.apply()).toBe(0);

    await updateMonitor(zebra, { query: 'giraffe' });
    await updateMonitor(crossing, { paused: true });
    await handle.db.delete(monitors).where(eq(monitors.id, okapi));
    await follower.apply();
    expect(hits(index, 'A zebra crossing, an okapi')).toEqual([]);
    expect(hits(index, 'A giraffe')).toEqual([zebra]);
    expect([index.has(crossing), index.has(okapi)]).toEqual([false, false]);

    await updateMonitor(crossing, { paused: false });
    await updateMonitor(dormant, { paused: false });
    await follower.apply();
    expect(hits(index, 'A zebra crossing')).toEqual([crossing]);
    expect(hits(index, 'An aardvark burrow')).toEqual([aardvark, dormant].sort());
  });

  test('a change of sources: one site, then every site, then another one', async () => {
    const index = await loadMonitorIndex(handle.db);
    const follower = new MonitorFollower(handle.db, () => index, silentLogger);
    await follower.start();
    const pangolin = await createMonitor('pangolin', { sources: ['reddit'] });
    await follower.apply();
    expect(hits(index, 'A pangolin', 'reddit')).toEqual([pangolin]);
    expect(hits(index, 'A pangolin', 'hackernews')).toEqual([]);

    await updateMonitor(pangolin, { sources: ['hackernews', 'reddit', 'lobsters'] });
    await follower.apply();
    expect(hits(index, 'A pangolin', 'hackernews')).toEqual([pangolin]);

    await updateMonitor(pangolin, { sources: ['lobsters'] });
    await follower.apply();
    expect(hits(index, 'A pangolin', 'hackernews')).toEqual([]);
    expect(hits(index, 'A pangolin', 'reddit')).toEqual([]);
    expect(hits(index, 'A pangolin', 'lobsters')).toEqual([pangolin]);
  });

  test("a shard's follower takes only the monitors of its shard", async () => {
    const shard = { index: 0, count: 2 };
    const index = await loadMonitorIndex(handle.db, shard);
    const follower = new MonitorFollower(handle.db, () => index, silentLogger);
    await follower.start();
    const mine = await createMonitor('capybara', { id: idInShard(0, 2) });
    const theirs = await createMonitor('capybara', { id: idInShard(1, 2) });
    await follower.apply();
    expect(hits(index, 'A capybara')).toEqual([mine]);
    expect(index.has(theirs)).toBe(false);
  });
});

describe('a running worker with two shards', () => {
  let worker: Worker;
  let next = 1;

  beforeAll(async () => {
    await handle.db.delete(monitors);
    const config = parseConfig({ DATA_DIR: '/nonexistent', SOURCES: 'none', MATCH_SHARDS: '2' });
    worker = await startWorker({
      config,
      database: handle,
      events: new MatchEvents(),
      logger: silentLogger,
      matchPollMs: 50,
      leaseRetryMs: 100,
    });
    await waitFor(
      () => worker.held().filter((lease) => lease.startsWith('shard:')).length === 2,
      'both shards',
    );
  });
  afterAll(async () => {
    await worker?.stop();
  });

  async function post(title: string): Promise<string> {
    const externalId = `worker-${next++}`;
    const item = testItem({ externalId, title, createdAt: new Date().toISOString() });
    await storeItems(handle.db, { source: 'hackernews', items: [item] });
    return externalId;
  }

  /** The monitors that matched a post, once every shard has passed it. */
  async function matchedBy(externalId: string): Promise<string[]> {
    await waitFor(async () => {
      const rows = rowsOf<{ n: number }>(
        await handle.db.execute(sql`select count(*)::int as n from match_cursors
          where last_item_id >= (select id from items where external_id = ${externalId})`),
      );
      return rows[0]?.n === 2;
    }, `item ${externalId} to be matched`);
    return rowsOf<{ monitor_id: string }>(
      await handle.db.execute(
        sql`select monitor_id from matches where external_id = ${externalId}`,
      ),
    )
      .map((row) => row.monitor_id)
      .sort();
  }

  /**
   * Posts `title` until `monitorId` matches it: the shard applies a change at its next round,
   * and a post stored before that is matched without it (and passed for good).
   */
  async function postUntilMatched(title: string, monitorId: string): Promise<string[]> {
    let matched: string[] = [];
    await waitFor(async () => {
      matched = await matchedBy(await post(title));
      return matched.includes(monitorId);
    }, `"${title}" to be matched by ${monitorId}`);
    return matched;
  }

  test('each shard follows monitors created, edited, paused and resumed while it runs', async () => {
    const zebra = await createMonitor('zebra', { id: idInShard(0, 2) });
    const okapi = await createMonitor('okapi', { id: idInShard(1, 2) });
    expect(await postUntilMatched('A zebra', zebra)).toEqual([zebra]);
    expect(await postUntilMatched('An okapi', okapi)).toEqual([okapi]);

    await updateMonitor(zebra, { query: 'giraffe' });
    await updateMonitor(okapi, { query: 'quagga' });
    await postUntilMatched('A giraffe', zebra);
    await postUntilMatched('A quagga', okapi);
    // The edit replaced the old query in the index rather than adding the new one next to it.
    expect(await matchedBy(await post('A zebra, an okapi'))).toEqual([]);

    await updateMonitor(zebra, { paused: true });
    await updateMonitor(okapi, { paused: true });
    await updateMonitor(zebra, { paused: false });
    await updateMonitor(okapi, { paused: false, query: 'zebra' });
    expect(await postUntilMatched('A zebra', okapi)).toEqual([okapi]);
    expect(await postUntilMatched('A giraffe', zebra)).toEqual([zebra]);
  });
});

/** A monitor id that falls in shard `index` of `count`. */
function idInShard(index: number, count: number): string {
  for (;;) {
    const id = randomUUID();
    if (shardOf(id, count) === index) return id;
  }
}
