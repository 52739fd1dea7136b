import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, test } from 'vitest';
import { openDatabase, rowsOf } from '../../src/db/client.ts';
import { matchFeedJsonBody } from '../../src/db/match-feed-json.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../src/db/migrate.ts';

// Every match carries its feed JSON: the matches stored before migration 0009 get theirs from the
// backfill, the ones after from the insert trigger, and both are toMatch's, less the read flag.
// The function that writes it is derived from the wire schema and installed by the migration
// runner, which rewrites every row's JSON when the schema's fields change.
const before = mkdtempSync(path.join(tmpdir(), 'earshot-migrations-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

test('matches stored before migration 0009 and after get the same feed JSON, refreshed when its fields change', async () => {
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((entry) => entry.tag.startsWith('0009_'));
  expect(upTo).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, upTo);
  writeFileSync(journalPath, JSON.stringify(journal));

  const handle = await openDatabase({ pgliteDir: 'memory://' });
  try {
    await migrate(handle.db as unknown as PgliteDatabase, { migrationsFolder: before });
    const userId = randomUUID();
    await handle.db.execute(
      sql`insert into users (id, email) values (${userId}, 'old@example.com')`,
    );
    const insertMatch = (externalId: string) =>
      handle.db.execute(sql`
        insert into matches (user_id, monitor_id, source, external_id, kind, title, snippet,
          highlights, url, permalink, author, community, item_created_at, matched_at, search)
        select ${userId}::uuid, m.id, 'reddit', ${externalId}, 'comment', null,
          'Quotes " and \\ and ünïcödé', '[[0, 6]]'::jsonb, null, 'https://www.reddit.com/r/x/1',
          'ada', 'programming', '2026-01-02T03:04:05.678Z', '2026-01-02T03:04:06.789Z', ''
        from monitors m where m.user_id = ${userId}::uuid`);
    await handle.db.execute(
      sql`insert into monitors (user_id, name, query) values (${userId}::uuid, 'Old', 'quotes')`,
    );
    await insertMatch('old');

    const { applied, feedJsonRefreshed } = await migrateDatabase(handle);
    expect(applied).toBeGreaterThanOrEqual(1);
    expect(feedJsonRefreshed).toBe(true);
    await insertMatch('new');

    const readRows = async () =>
      rowsOf<{ id: string; external_id: string; monitor_id: string; feed_json: string }>(
        await handle.db.execute(
          sql`select id::text, external_id, monitor_id::text, feed_json from matches order by external_id`,
        ),
      );
    const rows = await readRows();
    expect(rows.map((row) => row.external_id)).toEqual(['new', 'old']);
    for (const row of rows) {
      // Compact, as JSON.stringify writes it: no space between a key and its value.
      expect(row.feed_json).not.toMatch(/" ?: /);
      // The key order is toMatch's, so the page's text is the same as serialising it.
      expect(Object.keys(JSON.parse(row.feed_json))).toEqual([
        'id',
        'monitorId',
        'source',
        'kind',
        'title',
        'titleHighlights',
        'threadTitle',
        'threadId',
        'snippet',
        'highlights',
        'hitFields',
        'url',
        'permalink',
        'author',
        'community',
        'intents',
        'sentiment',
        'language',
        'signalsCorrected',
        'itemCreatedAt',
        'matchedAt',
      ]);
      expect(JSON.parse(row.feed_json)).toEqual({
        id: row.id,
        monitorId: row.monitor_id,
        source: 'reddit',
        kind: 'comment',
        title: null,
        // Stored before migration 0016 (and so also by hand here): no title hits, thread or fields.
        titleHighlights: [],
        threadTitle: null,
        threadId: null,
        snippet: 'Quotes " and \\ and ünïcödé',
        highlights: [[0, 6]],
        hitFields: [],
        url: null,
        permalink: 'https://www.reddit.com/r/x/1',
        author: 'ada',
        community: 'programming',
        // Stored before migration 0022: no signals.
        intents: [],
        sentiment: null,
        language: null,
        signalsCorrected: false,
        itemCreatedAt: '2026-01-02T03:04:05.678Z',
        matchedAt: '2026-01-02T03:04:06.789Z',
      });
    }

    // The definition is current: migrating again rewrites nothing.
    expect((await migrateDatabase(handle)).feedJsonRefreshed).toBe(false);
    expect(await readRows()).toEqual(rows);

    // A database whose function is older than the schema (0009's own, without the id) and whose
    // rows were written by it: the runner installs the schema's and rewrites every row.
    const first = readFileSync(path.join(MIGRATIONS_FOLDER, '0009_feed_json.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .find((statement) => statement.includes('CREATE FUNCTION "match_feed_json"'));
    await handle.db.execute(
      sql.raw((first ?? '').replace('CREATE FUNCTION', 'CREATE OR REPLACE FUNCTION')),
    );
    await handle.db.execute(sql`update matches set feed_json = match_feed_json(matches)`);
    expect((await readRows()).map((row) => JSON.parse(row.feed_json).id)).toEqual([
      undefined,
      undefined,
    ]);
    expect((await migrateDatabase(handle)).feedJsonRefreshed).toBe(true);
    expect(await readRows()).toEqual(rows);
    const [installed] = rowsOf<{ body: string }>(
      await handle.db.execute(
        sql`select prosrc as body from pg_proc where proname = 'match_feed_json'`,
      ),
    );
    expect(installed?.body).toBe(matchFeedJsonBody());
  } finally {
    await handle.close();
  }
});
