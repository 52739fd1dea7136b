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
import { indexSources } from '../../src/pipeline/load-monitor-index.ts';

// Migration 0012: a monitor that watched every site of its time (all three named) watches every
// site from then on, those added later too; one that named some keeps them; new monitors
// default to every site.
const before = mkdtempSync(path.join(tmpdir(), 'earshot-migrations-'));
afterAll(() => rmSync(before, { recursive: true, force: true }));

test('monitors of every site store none after migration 0012, others keep their sites', async () => {
  cpSync(MIGRATIONS_FOLDER, before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const upTo = journal.entries.findIndex((entry) => entry.tag.startsWith('0012_'));
  expect(upTo).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, upTo);
  writeFileSync(journalPath, JSON.stringify(journal));

  const handle = await openDatabase({ pgliteDir: 'memory://' });
  try {
    await migrate(handle.db as unknown as PgliteDatabase, { migrationsFolder: before });
    const userId = randomUUID();
    await handle.db.execute(sql`insert into users (id, email) values (${userId}, 'a@example.com')`);
    await handle.db.execute(sql`
      insert into monitors (user_id, name, query, sources) values
        (${userId}::uuid, 'all named', 'a', array['hackernews', 'reddit', 'lobsters']),
        (${userId}::uuid, 'all, other order', 'b', array['lobsters', 'hackernews', 'reddit']),
        (${userId}::uuid, 'two', 'c', array['hackernews', 'lobsters'])`);
    await handle.db.execute(
      sql`insert into monitors (user_id, name, query) values (${userId}::uuid, 'default', 'd')`,
    );

    const { applied } = await migrateDatabase(handle);
    expect(applied).toBeGreaterThanOrEqual(1);
    await handle.db.execute(
      sql`insert into monitors (user_id, name, query) values (${userId}::uuid, 'new', 'e')`,
    );

    const rows = rowsOf<{ name: string; sources: string[] }>(
      await handle.db.execute(sql`select name, sources from monitors order by query`),
    );
    expect(rows).toEqual([
      { name: 'all named', sources: [] },
      { name: 'all, other order', sources: [] },
      { name: 'two', sources: ['hackernews', 'lobsters'] },
      { name: 'default', sources: [] },
      { name: 'new', sources: [] },
    ]);
    // The matcher takes none as every site, with no site check.
    expect(indexSources([])).toEqual({});
    expect(indexSources(['hackernews', 'lobsters'])).toEqual({
      sources: ['hackernews', 'lobsters'],
    });
  } finally {
    await handle.close();
  }
});
