import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { ConfigError, parseConfig } from './config/env.ts';
import { loadDotEnv } from './config/load-env.ts';
import { openDatabase } from './db/client.ts';
import { migrateDatabase } from './db/migrate.ts';
import { createMailer } from './delivery/mailer.ts';
import { startDelivery } from './delivery/start-delivery.ts';
import { createIdentityProvider } from './identity/create-identity-provider.ts';
import { MatchEvents } from './pipeline/match-events.ts';
import { createLogger } from './platform/logger.ts';
import { createApp } from './server/create-app.ts';
import { readVersion } from './server/version.ts';

/**
 * The embedded one-process entry: config → database (+ migrations) → identity → HTTP.
 * Every failure before listening prints one line and exits 1; SIGINT/SIGTERM drain and exit 0.
 */
const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url));
const WEB_ROOT = path.join(PROJECT_ROOT, 'dist', 'web');
const SHUTDOWN_GRACE_MS = 4000;

async function main(): Promise<void> {
  const startedAt = Date.now();
  loadDotEnv();
  const config = parseConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: path.join(config.DATA_DIR, 'pglite'),
  });
  const { applied } = await migrateDatabase(database);
  logger.info({ database: database.kind, location: database.location, applied }, 'database ready');

  if (config.COGNITO_CLIENT_SECRET) {
    logger.warn(
      'COGNITO_CLIENT_SECRET is set but not used: browsers sign in directly against the pool, and a secret sent to them would be public. Use an app client without a secret.',
    );
  }
  const mailer = createMailer({ config, logger });
  const identity = await createIdentityProvider({ config, database, logger, mailer });
  const matchEvents = new MatchEvents();
  const app = createApp({
    matchEvents,
    config,
    database,
    identity,
    logger,
    version: readVersion(PROJECT_ROOT),
    startedAt,
    webRoot: existsSync(path.join(WEB_ROOT, 'index.html')) ? WEB_ROOT : null,
  });

  const stopDelivery = await startDelivery({
    db: database.db,
    config,
    logger,
    mailer,
    events: matchEvents,
  });

  const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  logger.info(
    { url: config.publicUrl, identity: identity.kind },
    `Earshot is listening on ${config.publicUrl}`,
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const forced = setTimeout(() => {
      if ('closeAllConnections' in server) server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    forced.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      if ('closeIdleConnections' in server) server.closeIdleConnections();
    });
    clearTimeout(forced);
    await stopDelivery();
    await identity.close();
    await mailer.close();
    await database.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(startupMessage(error));
  process.exit(1);
});

function startupMessage(error: unknown): string {
  if (error instanceof ConfigError) return error.message;
  if (error instanceof Error) {
    const code = 'code' in error ? String(error.code) : '';
    if (code === 'EADDRINUSE')
      return 'Cannot start: the port is already in use. Set PORT to a free port.';
    if (code === 'EACCES')
      return 'Cannot start: no permission to listen on that port. Use a PORT above 1024.';
    return `Cannot start: ${error.message.split('\n')[0]}`;
  }
  return `Cannot start: ${String(error)}`;
}
