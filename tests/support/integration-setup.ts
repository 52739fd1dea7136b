import { ensurePgliteTemplate } from './pglite-template.ts';

/** The integration suite's global setup: the migrated PGlite template its databases copy. */
export default async function setup(): Promise<void> {
  if (!process.env.DATABASE_URL) await ensurePgliteTemplate();
}
