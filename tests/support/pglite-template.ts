import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { openDatabase } from '../../src/db/client.ts';
import { MIGRATIONS_FOLDER, migrateDatabase } from '../../src/db/migrate.ts';

// A new PGlite database runs initdb and then every migration: seconds of CPU each, and the
// suites open dozens (in memory in this process, on disk in app processes). The global setup
// builds one migrated database per set of migrations and keeps it twice: as the tarball of
// its data directory (`loadDataDir` of an in-memory database) and as a data directory to copy
// under an app process's DATA_DIR.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'earshot-tests');
const PREFIX = 'pglite-template-';

/** The template's name for these migrations and this PGlite (a change of either makes a new one). */
function templateName(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json')));
  const files = readdirSync(MIGRATIONS_FOLDER, { recursive: true, encoding: 'utf8' }).sort();
  for (const file of files) {
    if (!file.endsWith('.sql') && !file.endsWith('.json')) continue;
    hash.update(file).update(readFileSync(path.join(MIGRATIONS_FOLDER, file)));
  }
  return `${PREFIX}${hash.digest('hex').slice(0, 16)}`;
}

const tarballOf = (name: string) => path.join(CACHE, `${name}.tar`);
const directoryOf = (name: string) => path.join(CACHE, name);

/** Builds the template unless these migrations have one already. */
export async function ensurePgliteTemplate(): Promise<void> {
  const name = templateName();
  const tarball = tarballOf(name);
  const directory = directoryOf(name);
  if (existsSync(tarball) && existsSync(directory)) return;
  mkdirSync(CACHE, { recursive: true });
  // Another run may build the same template at once: each writes aside, then renames.
  const aside = `${process.pid}-${Date.now()}`;
  const handle = await openDatabase({ pgliteDir: 'memory://' });
  let dump: Blob;
  try {
    await migrateDatabase(handle);
    dump = await (handle.driver as { client: PGlite }).client.dumpDataDir('none');
  } finally {
    await handle.close();
  }
  await writeFile(`${tarball}.${aside}`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${tarball}.${aside}`, tarball);
  const onDisk = await PGlite.create({ dataDir: `${directory}.${aside}`, loadDataDir: dump });
  await onDisk.close();
  if (existsSync(directory)) rmSync(`${directory}.${aside}`, { recursive: true, force: true });
  else renameSync(`${directory}.${aside}`, directory);
  for (const old of readdirSync(CACHE)) {
    if (old.startsWith(PREFIX) && !old.startsWith(name)) {
      rmSync(path.join(CACHE, old), { recursive: true, force: true });
    }
  }
}

let tarball: Blob | null | undefined;

/** The migrated template's data directory as a tarball, when one was built for these migrations. */
export function pgliteTemplate(): Blob | null {
  if (tarball === undefined) {
    const file = tarballOf(templateName());
    tarball = existsSync(file) ? new Blob([readFileSync(file)]) : null;
  }
  return tarball;
}

/**
 * Copies the migrated template to `pgliteDir` (an app's DATA_DIR/pglite) when there is one;
 * returns whether it did. Without it the app makes and migrates its database at start.
 */
export function copyPgliteTemplate(pgliteDir: string): boolean {
  const directory = directoryOf(templateName());
  if (!existsSync(directory)) return false;
  cpSync(directory, pgliteDir, { recursive: true });
  return true;
}
