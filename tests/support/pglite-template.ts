import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/client.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../src/db/migrate.ts';

// A new PGlite database runs initdb and then every migration: seconds of CPU each, and the
// integration suite opens dozens. The suite's global setup builds one migrated database and
// keeps its data directory; each test's database starts as a copy of it.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'earshot-tests');

/** The template's file for these migrations and this PGlite (a change of either makes a new one). */
export function pgliteTemplatePath(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    const full = path.join(MIGRATIONS_FOLDER, file);
    if (!file.endsWith('.sql') && !file.endsWith('.json')) continue;
    hash.update(file).update(readFileSync(full));
  }
  return path.join(CACHE, `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** Builds the template unless this set of migrations has one already; returns its path. */
export async function ensurePgliteTemplate(): Promise<string> {
  const target = pgliteTemplatePath();
  if (existsSync(target)) return target;
  mkdirSync(CACHE, { recursive: true });
  const handle = await openDatabase({ pgliteDir: 'memory://' });
  try {
    await migrateDatabase(handle);
    const client = (handle.driver as { client: PGlite }).client;
    const dump = await client.dumpDataDir('none');
    // Another run may build the same template at once: write aside, then rename into place.
    const aside = `${target}.${process.pid}`;
    await writeFile(aside, Buffer.from(await dump.arrayBuffer()));
    renameSync(aside, target);
  } finally {
    await handle.close();
  }
  for (const old of readdirSync(CACHE)) {
    if (old.startsWith('pglite-template-') && path.join(CACHE, old) !== target) {
      rmSync(path.join(CACHE, old), { force: true });
    }
  }
  return target;
}

let template: Blob | null | undefined;

/** The migrated template's data directory, when one was built for these migrations. */
export function pgliteTemplate(): Blob | null {
  if (template === undefined) {
    const file = pgliteTemplatePath();
    template = existsSync(file) ? new Blob([readFileSync(file)]) : null;
  }
  return template;
}
