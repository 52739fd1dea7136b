import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { matches } from '../../src/db/schema/matches.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { createServerDatabase } from '../support/server-database.ts';

// On the PostgreSQL server, where stores run in parallel transactions (sources at once, a leader
// handing over): a matcher shard moves its cursor past every item id it reads, so an item whose
// transaction took a lower id but committed later must not be passed over.

let database: Awaited<ReturnType<typeof createServerDatabase>>;
beforeAll(async () => {
  database = await createServerDatabase();
});
afterAll(async () => {
  await database?.drop();
});

const USER = '00000000-0000-4000-8000-0000000000c1';

test('a store still in flight holds back later stores, so the matcher never skips its item', async () => {
  const { db } = database.handle;
  await db.insert(users).values({ id: USER, email: 'order@example.com' });
  await db.insert(monitors).values({ userId: USER, query: 'postgres' });
  const index = await loadMonitorIndex(db);
  const events = new MatchEvents();

  // A store in flight on another connection: it has taken its turn and its id, not committed.
  const inFlight = new pg.Client({ connectionString: database.url });
  await inFlight.connect();
  try {
    await inFlight.query('begin');
    await inFlight.query('select pg_advisory_xact_lock(7221043)');
    await inFlight.query(
      `insert into items (source, external_id, kind, title, body, permalink, created_at, search)
       values ('hackernews', 'first', 'post', 'postgres first', '', 'https://example.com/1', now(),
         to_tsvector('simple', 'postgres first'))`,
    );
    const later = storeItems(db, {
      source: 'lobsters',
      items: [
        {
          source: 'lobsters',
          externalId: 'second',
          kind: 'post',
          title: 'postgres second',
          body: '',
          url: null,
          permalink: 'https://example.com/2',
          author: null,
          community: null,
          parentExternalId: null,
          createdAt: new Date().toISOString(),
        },
      ],
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await matchNewItems({ db, index, events });
    await inFlight.query('commit');
    await later;
  } finally {
    await inFlight.end();
  }
  while ((await matchNewItems({ db, index, events })).more);
  const made = await db.select({ externalId: matches.externalId }).from(matches);
  expect(made.map((m) => m.externalId).sort()).toEqual(['first', 'second']);
});
