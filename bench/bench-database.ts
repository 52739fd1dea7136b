/**
 * What the pipeline benchmarks share: a fresh database of either kind (PGlite on disk, or a new
 * database on the PostgreSQL server at DATABASE_URL, dropped afterwards) and N monitors seeded
 * with the matcher benchmark's query mix, 100 to a user.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { monitors } from '../src/db/schema/monitors.ts';
import { users } from '../src/db/schema/users.ts';
import { buildVocabulary, generateMonitors, loadItems } from './matcher-workload.ts';

export const SERVER_URL = process.env.DATABASE_URL || 'postgres://root@127.0.0.1:5432/test';

export async function openBenchDatabase(kind: 'pglite' | 'postgres', name: string) {
  if (kind === 'pglite') {
    // On disk, as `npm start` keeps it under ./data (in memory, PGlite's file system copies a
    // growing file whole every time it outgrows its buffer: not what users run).
    const dir = mkdtempSync(path.join(tmpdir(), `earshot-bench-${name}-`));
    const handle = await openDatabase({ pgliteDir: dir });
    await migrateDatabase(handle);
    return {
      handle,
      drop: async () => {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const database = `earshot_bench_${randomBytes(4).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: SERVER_URL });
    await client.connect();
    await client.query(statement).finally(() => client.end());
  };
  await admin(`create database ${database}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  const handle = await openDatabase({ databaseUrl: url.toString() });
  await migrateDatabase(handle);
  return {
    handle,
    drop: async () => {
      await handle.close();
      await admin(`drop database if exists ${database} with (force)`);
    },
  };
}

/** Seeds `count` monitors (the matcher benchmark's mix); returns the seconds it took. */
export async function seedMonitors(handle: DatabaseHandle, count: number): Promise<number> {
  const started = performance.now();
  const generated = generateMonitors(buildVocabulary(loadItems()), count, 42);
  const owners = Array.from({ length: Math.ceil(count / 100) }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    email: `bench${i}@example.com`,
  }));
  for (let i = 0; i < owners.length; i += 1000) {
    await handle.db.insert(users).values(owners.slice(i, i + 1000));
  }
  for (let i = 0; i < generated.length; i += 1000) {
    await handle.db.insert(monitors).values(
      generated.slice(i, i + 1000).map((monitor, j) => ({
        id: monitor.id,
        userId: (owners[Math.floor((i + j) / 100)] as { id: string }).id,
        query: monitor.query,
      })),
    );
  }
  return (performance.now() - started) / 1000;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}
