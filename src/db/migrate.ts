import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { ADVISORY_LOCKS } from './advisory-locks.ts';
import { type DatabaseHandle, rowsOf } from './client.ts';
import { refreshMatchFeedJson } from './match-feed-json.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('./migrations', import.meta.url));

/**
 * Applies the committed migrations that have not run yet (Drizzle records them in
 * `drizzle.__drizzle_migrations`, so a second start applies nothing), then the definitions
 * derived from code rather than written in a migration: the stored feed JSON of a match
 * (`refreshMatchFeedJson`), replaced, with every row's JSON, when its field list changed. On a
 * PostgreSQL server an advisory lock keeps several processes starting at once from racing.
 */
export async function migrateDatabase(
  handle: DatabaseHandle,
): Promise<{ applied: number; feedJsonRefreshed: boolean }> {
  const before = await countApplied(handle);
  let feedJsonRefreshed = false;
  if (handle.driver.kind === 'pglite') {
    await migratePglite(handle.db as unknown as PgliteDatabase, {
      migrationsFolder: MIGRATIONS_FOLDER,
    });
    feedJsonRefreshed = await refreshMatchFeedJson(handle);
  } else {
    const client = await handle.driver.pool.connect();
    try {
      await client.query('select pg_advisory_lock($1)', [ADVISORY_LOCKS.migrations]);
      await migratePostgres(handle.db as unknown as NodePgDatabase, {
        migrationsFolder: MIGRATIONS_FOLDER,
      });
      feedJsonRefreshed = await refreshMatchFeedJson(handle);
    } finally {
      await client
        .query('select pg_advisory_unlock($1)', [ADVISORY_LOCKS.migrations])
        .catch(() => {});
      client.release();
    }
  }
  const after = await countApplied(handle);
  return { applied: after - before, feedJsonRefreshed };
}

async function countApplied(handle: DatabaseHandle): Promise<number> {
  try {
    const result = await handle.db.execute(
      sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
    );
    return Number(rowsOf<{ count: number }>(result)[0]?.count ?? 0);
  } catch {
    return 0;
  }
}
