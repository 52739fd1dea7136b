import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, expect, test } from 'vitest';
import { openDatabase, rowsOf } from '../../src/db/client.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../src/db/migrate.ts';

// Migration 0009 gives every match its feed JSON: the matches stored before it get theirs from
// the backfill, the ones after from the insert trigger, and both are toMatch's, less the id and
// the read flag.
const before = mkdtempSync(path.join(tmpdir(), 'earshot-migrations-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

test('matches stored before migration 0009 get the same feed JSON as those stored after', async () => {
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

    const { applied } = await migrateDatabase(handle);
    expect(applied).toBeGreaterThanOrEqual(1);
    await insertMatch('new');

    const rows = rowsOf<{ external_id: string; monitor_id: string; feed_json: string }>(
      await handle.db.execute(
        sql`select external_id, monitor_id::text, feed_json from matches order by external_id`,
      ),
    );
    expect(rows.map((row) => row.external_id)).toEqual(['new', 'old']);
    for (const row of rows) {
      // Compact, as JSON.stringify writes it: no space between a key and its value.
      expect(row.feed_json).not.toMatch(/" ?: /);
      // The key order is toMatch's, so the page's text is the same as serialising it.
      expect(Object.keys(JSON.parse(row.feed_json))).toEqual([
        'monitorId',
        'source',
        'kind',
        'title',
        'snippet',
        'highlights',
        'url',
        'permalink',
        'author',
        'community',
        'itemCreatedAt',
        'matchedAt',
      ]);
      expect(JSON.parse(row.feed_json)).toEqual({
        monitorId: row.monitor_id,
        source: 'reddit',
        kind: 'comment',
        title: null,
        snippet: 'Quotes " and \\ and ünïcödé',
        highlights: [[0, 6]],
        url: null,
        permalink: 'https://www.reddit.com/r/x/1',
        author: 'ada',
        community: 'programming',
        itemCreatedAt: '2026-01-02T03:04:05.678Z',
        matchedAt: '2026-01-02T03:04:06.789Z',
      });
    }
  } finally {
    await handle.close();
  }
});
