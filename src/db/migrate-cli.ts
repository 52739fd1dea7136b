import path from 'node:path';
import { parseConfig } from '../config/env.ts';
import { loadDotEnv } from '../config/load-env.ts';
import { openDatabase } from './client.ts';
import { migrateDatabase } from './migrate.ts';

// `npm run db:migrate`: the same migrations the server applies at start, for deploy pipelines.
try {
  loadDotEnv();
  const config = parseConfig(process.env);
  const handle = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, 'pglite'),
  });
  const { applied, feedJsonRefreshed } = await migrateDatabase(handle);
  await handle.close();
  const refreshed = feedJsonRefreshed ? '; the stored feed JSON of matches rewritten' : '';
  console.log(`Migrations: ${applied} applied on ${handle.kind} (${handle.location})${refreshed}.`);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
