import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { IdentityProvider } from '../identity/port.ts';
import type { Logger } from '../platform/logger.ts';

/** Everything the HTTP app needs, built once by main.ts (or by a test). */
export type AppDeps = {
  config: Config;
  database: DatabaseHandle;
  identity: IdentityProvider;
  logger: Logger;
  version: string;
  /** Milliseconds since the epoch when the process started, for uptime. */
  startedAt: number;
  /** Directory of the built web app; null serves no web app (API-only tests). */
  webRoot: string | null;
};
