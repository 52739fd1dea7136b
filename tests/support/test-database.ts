import { randomBytes } from 'node:crypto';
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
  if (!serverUrl) {
    const handle = await openDatabase({
      pgliteDir: 'memory://',
      pgliteDataDir: pgliteTemplate() ?? undefined,
    });
    // Nothing to do when the template is current; a database without one is migrated here.
    await migrateDatabase(handle);
    return handle;
  }
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
