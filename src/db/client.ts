import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema/index.ts';

/** One type for both drivers: the code above this module never knows which one runs. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = 'pglite' | 'postgres';

export type DatabaseHandle = {
  db: Database;
  kind: DatabaseKind;
  /** Where the data lives, for logs: a directory for PGlite, the URL without password for PostgreSQL. */
  location: string;
  /** The driver underneath, for the few libraries (the job queue) that need raw SQL. */
  driver: { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; pool: pg.Pool };
  ping(): Promise<boolean>;
  close(): Promise<void>;
};

export type OpenDatabaseOptions = {
  /** postgres:// URL of a server; when absent, PGlite under `pgliteDir` (or in memory). */
  databaseUrl?: string | undefined;
  /** Directory for PGlite's files; `memory://` keeps everything in memory (tests). */
  pgliteDir?: string;
  /**
   * A PGlite data directory to start from (a `dumpDataDir` tarball) instead of a new, empty
   * one: tests copy a migrated template this way rather than build each database anew.
   */
  pgliteDataDir?: Blob | undefined;
};

export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl);
  return openPglite(options.pgliteDir ?? 'memory://', options.pgliteDataDir);
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
  // Idle clients can fail when the server restarts; the pool replaces them, we only log upstream.
  pool.on('error', () => {});
  // A client checked out for a transaction has no pool listener: a connection cut then (a
  // restart, an outage) would be an uncaught error. The transaction's statement fails instead.
  pool.on('connect', (client) => client.on('error', () => {}));
  const location = redactUrl(url);
  try {
    const client = await pool.connect();
    client.release();
  } catch (error) {
    await pool.end().catch(() => {});
    throw new DatabaseUnavailableError(
      `Cannot connect to PostgreSQL at ${location}: ${describe(error)}`,
    );
  }
  const db = drizzlePostgres({ client: pool, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    location,
    driver: { kind: 'postgres', pool },
    ping: () => ping(db),
    close: () => pool.end(),
  };
}

async function openPglite(dir: string, dataDir: Blob | undefined): Promise<DatabaseHandle> {
  const inMemory = dir.startsWith('memory://');
  if (!inMemory) mkdirSync(dir, { recursive: true });
  let client: PGlite;
  try {
    client = await PGlite.create({
      ...(inMemory ? {} : { dataDir: path.resolve(dir) }),
      ...(dataDir ? { loadDataDir: dataDir } : {}),
    });
  } catch (error) {
    throw new DatabaseUnavailableError(
      `Cannot open the embedded database in ${dir}: ${describe(error)}`,
    );
  }
  const db = drizzlePglite({ client, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    location: inMemory ? 'memory' : path.resolve(dir),
    driver: { kind: 'pglite', client },
    ping: () => ping(db),
    close: () => client.close(),
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}

function redactUrl(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/** node-postgres returns `{ rows }`, PGlite returns `{ rows }` too; the type differs per driver. */
export function rowsOf<T>(result: unknown): T[] {
  if (result && typeof result === 'object' && 'rows' in result && Array.isArray(result.rows)) {
    return result.rows as T[];
  }
  return [];
}
