import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { type Config, ConfigError, parseConfig } from './config/env.ts';
import { loadDotEnv } from './config/load-env.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { startDelivery } from './delivery/start-delivery.ts';
import { createIdentityProvider } from './identity/create-identity-provider.ts';
import type { IdentityProvider } from './identity/port.ts';
import { MatchEvents } from './matches/match-events.ts';
import { startWorker, type Worker } from './pipeline/worker.ts';
import { createLogger, type Logger } from './platform/logger.ts';
import { createMailer } from './platform/mailer.ts';
import { createApp } from './server/create-app.ts';
import { readVersion } from './server/version.ts';

/**
 * The entries: `npm start` (src/main.ts: web and worker in one process, the embedded default),
 * `npm run web` (src/web-main.ts) and `npm run worker` (src/worker-main.ts), all composed here:
 * config → database (+ migrations) → identity → HTTP and/or the ingestion worker.
 * Every failure before listening prints one line and exits 1; SIGINT/SIGTERM drain and exit 0.
 */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB_ROOT = path.join(PROJECT_ROOT, 'dist', 'web');
const SHUTDOWN_GRACE_MS = 4000;

/** Which halves this process runs. */
export type Roles = { readonly web: boolean; readonly worker: boolean };

export type Running = {
  readonly config: Config;
  readonly database: DatabaseHandle;
  readonly identity: IdentityProvider | null;
  readonly logger: Logger;
  readonly events: MatchEvents;
  readonly worker: Worker | null;
  stop(): Promise<void>;
};

/** Starts the given roles; `config` defaults to the environment (and `.env`). */
export async function startEarshot(roles: Roles, given?: Config): Promise<Running> {
  const startedAt = Date.now();
  let config = given;
  if (!config) {
    loadDotEnv();
    config = parseConfig(process.env);
  }
  const logger = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, 'pglite'),
  });
  const { applied, feedJsonRefreshed } = await migrateDatabase(database);
  logger.info(
    { database: database.kind, location: database.location, applied, feedJsonRefreshed },
    'database ready',
  );
  // New matches are announced in this process (they wake the live feed and delivery).
  const events = new MatchEvents();

  let identity: IdentityProvider | null = null;
  let server: ReturnType<typeof serve> | null = null;
  // The identity service (web) and delivery (worker) both send mail.
  const mailer = createMailer({ config, logger });
  if (roles.web) {
    if (config.COGNITO_CLIENT_SECRET) {
      logger.warn(
        'COGNITO_CLIENT_SECRET is set but not used: browsers sign in directly against the pool, and a secret sent to them would be public. Use an app client without a secret.',
      );
    }
    identity = await createIdentityProvider({ config, database, logger, mailer });
    const app = createApp({
      matchEvents: events,
      config,
      database,
      identity,
      logger,
      version: readVersion(PROJECT_ROOT),
      startedAt,
      webRoot: existsSync(path.join(WEB_ROOT, 'index.html')) ? WEB_ROOT : null,
    });
    const listening = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST });
    server = listening;
    await new Promise<void>((resolve, reject) => {
      listening.once('listening', resolve);
      listening.once('error', reject);
    });
    logger.info(
      { url: config.publicUrl, identity: identity.kind },
      `Earshot is listening on ${config.publicUrl}`,
    );
  }
  const worker = roles.worker ? await startWorker({ config, database, events, logger }) : null;
  const stopDelivery = roles.worker
    ? await startDelivery({ db: database.db, config, logger, mailer, events })
    : async () => {};

  const stop = async () => {
    if (server) {
      const open = server;
      const forced = setTimeout(() => {
        if ('closeAllConnections' in open) open.closeAllConnections();
      }, SHUTDOWN_GRACE_MS);
      forced.unref();
      await new Promise<void>((resolve) => {
        open.close(() => resolve());
        if ('closeIdleConnections' in open) open.closeIdleConnections();
      });
      clearTimeout(forced);
    }
    await worker?.stop();
    await stopDelivery();
    await identity?.close();
    await mailer.close();
    await database.close();
  };
  return { config, database, identity, logger, events, worker, stop };
}

/** Runs the roles as this process's whole life: one line and exit 1 on a start-up failure. */
export function runFromCommandLine(roles: Roles): void {
  startEarshot(roles)
    .then((running) => {
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        running.logger.info({ signal }, 'shutting down');
        await running.stop();
        running.logger.info('stopped');
        process.exit(0);
      };
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    })
    .catch((error: unknown) => {
      console.error(startupMessage(error));
      process.exit(1);
    });
}

if (import.meta.main) runFromCommandLine({ web: true, worker: true });

/** One line for a failure before listening: what went wrong and what to do about it. */
export function startupMessage(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof Error) {
    const code = 'code' in error ? String(error.code) : '';
    if (code === 'EADDRINUSE') {
      const port = 'port' in error ? ` ${String(error.port)}` : '';
      return `Cannot start: port${port} is already in use (another Earshot, or another program). Stop it, or set PORT to a free port.`;
    }
    if (code === 'EACCES')
      return 'Cannot start: no permission to listen on that port. Use a PORT above 1024.';
    return `Cannot start: ${error.message.split('\n')[0]}`;
  }
  return `Cannot start: ${String(error)}`;
}
