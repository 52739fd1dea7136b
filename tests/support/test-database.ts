import { randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { pgliteTemplate } from './pglite-template.ts';

/**
 * A fresh, migrated database for one test file: in-memory PGlite by default (a copy of the
 * migrated template the suite's global setup builds, see pglite-template.ts), or a new database
 * on the PostgreSQL server named by DATABASE_URL (dropped again by `close()`). Tests never share
 * rows, so they can run in parallel and in any order.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return reusable(idle.pop() ?? (await openPgliteDatabase()));
  const name = `earshot_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await migrateDatabase(handle);
  return {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}

/**
 * PGlite databases that files of this worker closed, emptied again: opening one costs about
 * half a CPU-second (the template's files unpacked, PostgreSQL started), emptying one a tenth of
 * that. The worker keeps its modules from one file to the next (vitest.config.ts), so later
 * files take these instead of opening their own.
 */
const idle: DatabaseHandle[] = [];

async function openPgliteDatabase(): Promise<DatabaseHandle> {
  const handle = await openDatabase({
    pgliteDir: 'memory://',
    pgliteDataDir: pgliteTemplate() ?? undefined,
  });
  // Nothing to do when the template is current; a database without one is migrated here.
  await migrateDatabase(handle);
  return handle;
}

/** `handle`, whose `close()` empties it and sets it aside for the next file instead. */
function reusable(handle: DatabaseHandle): DatabaseHandle {
  let closed = false;
  return {
    ...handle,
    async close() {
      if (closed) return;
      closed = true;
      if (handle.driver.kind !== 'pglite' || handle.driver.client.closed) return;
      try {
        await emptyDatabase(handle.driver.client);
        idle.push(handle);
      } catch {
        await handle.close();
      }
    },
  };
}

/**
 * Back to the migrated template's state: no rows in any table (the template has none but the
 * migrations' own), ids from 1, and nothing of the last file's session (settings, advisory
 * locks). Prepared statements stay: src/db/prepared.ts remembers which it made on this client.
 */
async function emptyDatabase(client: PGlite): Promise<void> {
  await client.exec('reset all; select pg_advisory_unlock_all()');
  const tables = await client.query<{ name: string }>(
    "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'",
  );
  if (tables.rows.length === 0) return;
  await client.exec(
    `truncate ${tables.rows.map((table) => table.name).join(', ')} restart identity cascade`,
  );
}

export function testDatabaseKind(): 'pglite' | 'postgres' {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
