import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseConfig } from '../../src/config/env.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { silentLogger } from '../../src/pipeline/logger.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { startWorker, type Worker } from '../../src/pipeline/worker.ts';
import { testItem } from '../support/feed.ts';
import { waitFor } from '../support/ingest-harness.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The worker's in-memory index follows every create, edit, pause and delete of a monitor within
// a second (monitor_changes, kept by a trigger), with two shards in one worker.

const USER = '00000000-0000-4000-8000-0000000000d1';
let handle: DatabaseHandle;
let worker: Worker;
let next = 1;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insert(users).values({ id: USER, email: 'follow@example.com' });
  const config = parseConfig({ DATA_DIR: '/nonexistent', SOURCES: 'none', MATCH_SHARDS: '2' });
  worker = await startWorker({
    config,
    database: handle,
    events: new MatchEvents(),
    logger: silentLogger,
    matchPollMs: 100,
    leaseRetryMs: 200,
  });
  await waitFor(
    () => worker.held().filter((lease) => lease.startsWith('shard:')).length === 2,
    'both shards',
  );
});
afterAll(async () => {
  await worker.stop();
  await handle.close();
});

async function post(title: string): Promise<string> {
  const externalId = String(next++);
  const item = testItem({ externalId, title, createdAt: new Date().toISOString() });
  await storeItems(handle.db, { source: 'hackernews', items: [item] });
  return externalId;
}

async function matchedBy(externalId: string): Promise<string[]> {
  // Wait until every shard has passed the item, then read its matches.
  await waitFor(async () => {
    const rows = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from match_cursors
        where last_item_id >= (select id from items where external_id = ${externalId})`),
    );
    return rows[0]?.n === 2;
  }, `item ${externalId} to be matched`);
  return rowsOf<{ monitor_id: string }>(
    await handle.db.execute(sql`select monitor_id from matches where external_id = ${externalId}`),
  ).map((row) => row.monitor_id);
}

const aSecond = () => new Promise((resolve) => setTimeout(resolve, 1000));

test('create, edit, pause, resume and delete each reach the index within a second', async () => {
  const created = await handle.db
    .insert(monitors)
    .values([
      { userId: USER, query: 'zebra' },
      { userId: USER, query: 'zebra crossing' },
      { userId: USER, query: 'okapi' },
    ])
    .returning();
  const [zebra, crossing, okapi] = created.map((monitor) => monitor.id);
  await aSecond();
  expect((await matchedBy(await post('A zebra crossing'))).sort()).toEqual(
    [zebra, crossing].sort(),
  );

  await handle.db
    .update(monitors)
    .set({ query: 'giraffe' })
    .where(eq(monitors.id, zebra as string));
  await handle.db
    .update(monitors)
    .set({ paused: true })
    .where(eq(monitors.id, crossing as string));
  await handle.db.delete(monitors).where(eq(monitors.id, okapi as string));
  await aSecond();
  expect(await matchedBy(await post('Zebra crossing, okapi'))).toEqual([]);
  expect(await matchedBy(await post('A giraffe'))).toEqual([zebra]);

  await handle.db
    .update(monitors)
    .set({ paused: false })
    .where(eq(monitors.id, crossing as string));
  await aSecond();
  expect(await matchedBy(await post('zebra crossing again'))).toEqual([crossing]);
});

test('a change of sources reaches the index: one site, then every site, then another one', async () => {
  const [watcher] = await handle.db
    .insert(monitors)
    .values({ userId: USER, query: 'pangolin', sources: ['reddit'] })
    .returning();
  const id = watcher?.id as string;
  await aSecond();
  expect(await matchedBy(await post('A pangolin on Hacker News'))).toEqual([]);

  await handle.db
    .update(monitors)
    .set({ sources: ['hackernews', 'reddit', 'lobsters'] })
    .where(eq(monitors.id, id));
  await aSecond();
  expect(await matchedBy(await post('Another pangolin'))).toEqual([id]);

  await handle.db
    .update(monitors)
    .set({ sources: ['lobsters'] })
    .where(eq(monitors.id, id));
  await aSecond();
  expect(await matchedBy(await post('A third pangolin'))).toEqual([]);
});
