import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';

/** The PostgreSQL server the multi-process tests use (CI starts it at this address). */
export const SERVER_URL = process.env.DATABASE_URL || 'postgres://root@127.0.0.1:5432/test';

/** A new, migrated database on the server, with its URL (for child processes) and a drop. */
export async function createServerDatabase(): Promise<{
  url: string;
  handle: DatabaseHandle;
  name: string;
  drop(): Promise<void>;
}> {
  const name = `earshot_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await migrateDatabase(handle);
  return {
    url: url.toString(),
    handle,
    name,
    async drop() {
      await handle.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

export async function adminQuery(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
