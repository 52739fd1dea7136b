import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { MatchEvents, type NewMatch } from '../../src/matches/match-events.ts';
import { matchColumns, toMatch } from '../../src/matches/to-match.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import type { NormalisedItem } from '../../src/sources/normalised-item.ts';
import { createTestDatabase } from '../support/test-database.ts';

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await createTestDatabase();
});
afterEach(async () => {
  await handle.close();
});

const USER = '00000000-0000-4000-8000-00000000000a';

function item(externalId: string, title: string, body = ''): NormalisedItem {
  return {
    source: 'hackernews',
    externalId,
    kind: 'post',
    title,
    body,
    url: null,
    permalink: `https://news.ycombinator.com/item?id=${externalId}`,
    author: 'pg',
    community: null,
    parentExternalId: null,
    threadTitle: null,
    createdAt: '2026-11-24T10:00:00.000Z',
  };
}

test('items are stored once, matched once per monitor (never a paused one), counted, and announced after commit', async () => {
  const { db } = handle;
  await db.insert(users).values({ id: USER, email: 'a@example.com' });
  const [rust] = await db.insert(monitors).values({ userId: USER, query: 'rust' }).returning();
  const [paused] = await db
    .insert(monitors)
    .values({ userId: USER, query: 'rust', paused: true })
    .returning();
  await db.insert(monitors).values({ userId: USER, query: 'rust', sources: ['reddit'] });

  const first = await storeItems(db, {
    source: 'hackernews',
    items: [item('1', 'Rust 2.0 is out'), item('2', 'Trust issues'), item('1', 'Rust 2.0 is out')],
    cursor: { maxItem: 2 },
  });
  expect(first).toEqual({ stored: 2, duplicates: 1 });

  const events = new MatchEvents();
  const heard: NewMatch[] = [];
  events.subscribe((batch) => heard.push(...batch));
  const index = await loadMonitorIndex(db);
  expect(index.size).toBe(2);
  expect(await matchNewItems({ db, index, events })).toEqual({ items: 2, matches: 1, more: false });
  const readBack = async (announced: NewMatch | undefined) => {
    const [row] = await db
      .select(matchColumns)
      .from(matches)
      .where(sql`${matches.id} = ${announced?.matchId ?? 0}`);
    expect(row?.userId).toBe(announced?.userId);
    return row ? toMatch(row) : undefined;
  };
  expect(heard).toHaveLength(1);
  expect(await readBack(heard[0])).toMatchObject({
    monitorId: rust?.id,
    title: 'Rust 2.0 is out',
    // No body: the hit is in the title, and the snippet does not repeat it.
    titleHighlights: [[0, 4]],
    snippet: '',
    highlights: [],
    hitFields: ['title'],
  });

  // Nothing new: nothing matched again, even when the same items come once more.
  await storeItems(db, { source: 'hackernews', items: [item('1', 'Rust 2.0 is out')] });
  expect(await matchNewItems({ db, index, events })).toEqual({ items: 0, matches: 0, more: false });

  await storeItems(db, { source: 'hackernews', items: [item('3', 'Why', 'I like rust, a lot')] });
  await matchNewItems({ db, index, events });
  expect(await readBack(heard.at(-1))).toMatchObject({
    snippet: 'I like rust, a lot',
    highlights: [[7, 11]],
  });

  const [counted] = await db.select().from(monitors).where(sql`${monitors.id} = ${rust?.id}`);
  expect(counted?.matchCount).toBe(2);
  expect(counted?.lastMatchAt).toBeInstanceOf(Date);
  const all = await db.select().from(matches);
  expect(all.map((m) => m.monitorId).filter((id) => id === paused?.id)).toEqual([]);
  expect(all).toHaveLength(2);
  // Every match stored was announced once, with its owner.
  const stored = await db.select(matchColumns).from(matches).orderBy(matches.id);
  expect(heard).toEqual(stored.map((row) => ({ userId: row.userId, matchId: row.id })));
});

test('a batch larger than the limit is matched over several calls, in order', async () => {
  const { db } = handle;
  await db.insert(users).values({ id: USER, email: 'a@example.com' });
  await db.insert(monitors).values({ userId: USER, query: 'postgres' });
  const many = Array.from({ length: 25 }, (_, i) => item(String(i + 1), `postgres ${i}`));
  await storeItems(db, { source: 'hackernews', items: many });
  const index = await loadMonitorIndex(db);
  const events = new MatchEvents();
  const calls = [];
  for (;;) {
    const result = await matchNewItems({ db, index, events }, { limit: 10 });
    calls.push(result);
    if (!result.more) break;
  }
  expect(calls.map((c) => c.items)).toEqual([10, 10, 5]);
  expect(await db.$count(matches)).toBe(25);
});

test('an item is stored without its signals; they are computed when it makes a match and travel with it', async () => {
  const { db } = handle;
  await db.insert(users).values({ id: USER, email: 'a@example.com' });
  await db.insert(monitors).values({ userId: USER, query: 'sqlite' });
  await storeItems(db, {
    source: 'hackernews',
    items: [
      item(
        '7',
        'Ask HN: Which backup tool should I use for SQLite?',
        'I keep losing data. It is so frustrating. This is terrible. I hate it.',
      ),
      item('8', 'Show HN: Una base de datos SQLite', 'Hemos escrito una base de datos pequeña.'),
    ],
  });
  const stored = rowsOf(
    await db.execute(
      sql`select external_id, intents, sentiment, language from items order by external_id`,
    ),
  );
  // Not computed yet (decision 0043).
  const none = { intents: null, sentiment: null, language: null };
  expect(stored).toEqual([
    { external_id: '7', ...none },
    { external_id: '8', ...none },
  ]);
  const index = await loadMonitorIndex(db);
  await matchNewItems({ db, index, events: new MatchEvents() });
  const rows = await db.select(matchColumns).from(matches).orderBy(matches.externalId);
  expect(rows.map((row) => toMatch(row))).toMatchObject([
    { intents: ['question', 'recommendation', 'complaint'], sentiment: 'negative', language: 'en' },
    { intents: ['launch'], sentiment: null, language: 'es' },
  ]);
  const [feed] = rowsOf<{ feed_json: string }>(
    await db.execute(sql`select feed_json from matches order by external_id`),
  );
  expect(JSON.parse(feed?.feed_json ?? '{}')).toMatchObject({
    intents: ['question', 'recommendation', 'complaint'],
    sentiment: 'negative',
    language: 'en',
  });
});
