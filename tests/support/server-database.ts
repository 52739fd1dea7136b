import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';

/** Where the multi-process tests expect a PostgreSQL server when DATABASE_URL names none. */
export const DEFAULT_SERVER_URL = 'postgres://root@127.0.0.1:5432/test';

/** The PostgreSQL server the multi-process tests use (.ci/run starts it at the default address). */
export const SERVER_URL = process.env.DATABASE_URL || DEFAULT_SERVER_URL;

export const SERVER_HINT =
  'These tests need a PostgreSQL server: set DATABASE_URL, or run one at 127.0.0.1:5432 that trusts local connections and has a database "test" (README, "Tests").';

export type ServerDatabase = {
  /** The database's URL, for child processes and second connections. */
  url: string;
  handle: DatabaseHandle;
  name: string;
  drop(): Promise<void>;
};

/**
 * Whether the tests that need a PostgreSQL server can run. A server named by DATABASE_URL must
 * answer; without one, when none answers at the default address, they are skipped with a
 * visible warning, except under CI=true, where a missing server is a failure.
 */
export async function serverAvailability(
  env: Record<string, string | undefined> = process.env,
  defaultUrl = DEFAULT_SERVER_URL,
): Promise<{ run: boolean }> {
  if (env.DATABASE_URL) return { run: true };
  const problem = await whyNotAnswering(defaultUrl);
  if (problem === null) return { run: true };
  if (env.CI === 'true' || env.CI === '1') {
    throw new Error(`No PostgreSQL server answers at ${defaultUrl} (${problem}). ${SERVER_HINT}`);
  }
  console.warn(
    `\n⚠ SKIPPING TESTS THAT NEED A POSTGRESQL SERVER: none answers at ${defaultUrl} (${problem}). ${SERVER_HINT}\n`,
  );
  return { run: false };
}

const availability = await serverAvailability();

/**
 * A describe block that runs on the PostgreSQL server: it gets a new, migrated database of its
 * own (`server()` inside hooks and tests), dropped after the block. Skipped as
 * `serverAvailability` says.
 */
export function describeServer(name: string, body: (server: () => ServerDatabase) => void): void {
  describe.runIf(availability.run)(name, () => {
    let database: ServerDatabase | undefined;
    beforeAll(async () => {
      database = await createServerDatabase();
    });
    afterAll(async () => {
      await database?.drop();
    });
    body(() => {
      if (!database) throw new Error('The server database is made in beforeAll; use it in a test.');
      return database;
    });
  });
}

/** A new, migrated database on the server, with its URL (for child processes) and a drop. */
export async function createServerDatabase(): Promise<ServerDatabase> {
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
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

async function whyNotAnswering(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return describeFailure(error);
  } finally {
    await client.end().catch(() => {});
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0)
    return describeFailure(error.errors[0]);
  return error instanceof Error ? error.message || error.name : String(error);
}
