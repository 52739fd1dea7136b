import { existsSync } from 'node:fs';

/**
 * Loads `.env` from the working directory when there is one. Variables already set in the
 * environment win, as with every dotenv implementation (Node's own loader is used).
 */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
