import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { IdentityProvider } from '../identity/port.ts';
import type { MatchEvents } from '../matches/match-events.ts';
import type { Clock } from '../platform/clock.ts';
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
  /**
   * New matches made in this process: they wake the live feed's read at once (it also reads
   * once a second for those other processes commit); pass the pipeline's instance. Absent: a
   * private one.
   */
  matchEvents?: MatchEvents;
  /** Live feed timings; the defaults suit production (tests shorten them). */
  liveFeed?: {
    pollMs?: number;
    heartbeatMs?: number;
    /** How often an open stream checks its session is live (30 s). */
    sessionCheckMs?: number;
    /** How long a stream ticket is good for (30 s). */
    ticketTtlMs?: number;
    /** The clock tickets are timed by; the system clock when absent. */
    clock?: Clock;
  };
  /** Time for delivery's routes (the test-email limit); the system clock when absent. */
  clock?: Clock;
};
