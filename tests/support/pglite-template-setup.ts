import { ensurePgliteTemplate } from './pglite-template.ts';

/** Global setup of the integration and browser suites: the migrated PGlite template. */
export default async function setup(): Promise<void> {
  await ensurePgliteTemplate();
}
