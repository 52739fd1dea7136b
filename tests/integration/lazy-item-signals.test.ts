import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { createPreviewGate } from '../../src/core/monitors/preview-gate.ts';
import { previewMonitor } from '../../src/core/monitors/preview-monitor.ts';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { matchColumns, toMatch } from '../../src/matches/to-match.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { testItem } from '../support/feed.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Items are stored without their signals and get them when something reads them (decision
// 0043): the matcher for a monitor that filters on one or an item that makes a match, the
// preview for what it reads. These check that the answers are those of signals computed at once.

let handle: DatabaseHandle;
beforeEach(async () => {
  handle = await createTestDatabase();
});
afterEach(async () => {
  await handle.close();
});

const USER = '00000000-0000-4000-8000-00000000000b';
const NOW = new Date('2026-11-24T12:00:00.000Z');

const item = (externalId: string, title: string, body: string) =>
  testItem({ externalId, title, body, createdAt: '2026-11-24T10:00:00.000Z' });

const ITEMS = [
  item(
    '1',
    'Ask HN: Which kettle should I buy for a small office?',
    'We need something quiet that boils water quickly for about ten people.',
  ),
  item('2', 'My kettle collection', 'I have collected old kettles for years, here are a few.'),
  item('3', 'Kettle Labs is hiring a firmware engineer', 'Join our team, remote in Europe.'),
  item('4', 'What is the best teapot?', 'Looking for a teapot that keeps tea warm.'),
];

const signalsOfItems = async () =>
  rowsOf<{ external_id: string; intents: string[] | null }>(
    await handle.db.execute(sql`select external_id, intents from items order by external_id`),
  );

test('a monitor with intent:question matches items stored without signals, as if they had them', async () => {
  const { db } = handle;
  await db.insert(users).values({ id: USER, email: 'b@example.com' });
  await db.insert(monitors).values([
    { userId: USER, query: 'kettle intent:question' },
    { userId: USER, query: 'kettle -intent:hiring' },
  ]);
  await storeItems(db, { source: 'hackernews', items: ITEMS });
  expect((await signalsOfItems()).map((row) => row.intents)).toEqual([null, null, null, null]);

  await matchNewItems({ db, index: await loadMonitorIndex(db), events: new MatchEvents() });
  const rows = await db
    .select(matchColumns)
    .from(matches)
    .orderBy(matches.externalId, matches.monitorId);
  const made = rows.map((row) => ({ ...toMatch(row), externalId: row.externalId }));
  // The question matches both monitors, the collection only the second, the job ad neither.
  expect(made.map((match) => match.externalId).sort()).toEqual(['1', '1', '2']);
  const question = {
    intents: ['question', 'recommendation'],
    sentiment: 'neutral',
    language: 'en',
  };
  expect(made.filter((match) => match.externalId === '1')).toMatchObject([question, question]);
  expect(made.find((match) => match.externalId === '2')).toMatchObject({
    intents: [],
    language: 'en',
  });
  // The rows are not written again: the matches keep what was computed.
  expect((await signalsOfItems()).map((row) => row.intents)).toEqual([null, null, null, null]);
});

test('the preview and its chips read the signals of items stored without them', async () => {
  const { db } = handle;
  await storeItems(db, { source: 'hackernews', items: ITEMS });
  const ctx = {
    db,
    gate: createPreviewGate({ sharePercent: 100 }),
    budget: { items: 1000, ms: 60_000 },
    now: () => NOW,
  };
  const questions = await previewMonitor(ctx, { query: '(kettle OR teapot) intent:question' });
  expect(questions.items.map((match) => match.title).sort()).toEqual([
    'Ask HN: Which kettle should I buy for a small office?',
    'What is the best teapot?',
  ]);
  expect(questions.count).toBe(2);
  const hiring = await previewMonitor(ctx, { query: 'kettle -intent:question' });
  expect(hiring.items).toMatchObject([
    { title: 'Kettle Labs is hiring a firmware engineer', intents: ['hiring'], language: 'en' },
    { title: 'My kettle collection', intents: [], language: 'en' },
  ]);
});
