import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import { authenticateApiKey } from '../core/api-keys/authenticate-api-key.ts';
import { loadServerSecret } from '../db/server-secret.ts';
import { LiveMatches } from '../matches/live-matches.ts';
import { MatchEvents } from '../matches/match-events.ts';
import type { Clock } from '../platform/clock.ts';
import type { AppDeps } from './app-deps.ts';
import { ALERT_FEED_FILES_PATH, createAlertFeedFiles } from './http/alert-feed-files.ts';
import { API_DOCS_PATH, createApiDocsPage } from './http/api-docs-page.ts';
import { createApiRouter, registerSecuritySchemes } from './http/api-router.ts';
import { createErrorHandler, jsonError } from './http/errors.ts';
import { warnUntrustedForwarding } from './http/forwarded-warning.ts';
import { requestLog } from './http/request-log.ts';
import { requireAuth } from './http/require-auth.ts';
import { analyticsOrigins, createSecurityHeaders } from './http/security-headers.ts';
import { createStaticWeb } from './http/static-web.ts';
import { unknownApiPathsAnswer404 } from './http/unknown-api-paths.ts';
import { createStreamTickets, type StreamTickets } from './live/stream-tickets.ts';
import { createMcpRoutes } from './mcp/create-mcp-routes.ts';
import { createAlertFeedRoutes } from './routes/alert-feeds.ts';
import { createApiKeyRoutes } from './routes/api-keys.ts';
import { createEmailAlertRoutes } from './routes/email-alerts.ts';
import { createEmailRoutes } from './routes/emails.ts';
import { createEventRoutes, EVENTS_PATH } from './routes/events.ts';
import { createFeedRoutes } from './routes/feeds.ts';
import { createHealthRoutes } from './routes/health.ts';
import { createMatchRoutes } from './routes/matches.ts';
import { createMonitorWebhookRoutes } from './routes/monitor-webhooks.ts';
import { createMonitorRoutes } from './routes/monitors.ts';
import { createMuteRoutes } from './routes/mutes.ts';
import { createPublicConfigRoutes } from './routes/public-config.ts';
import { createUserRoutes } from './routes/user.ts';

/** The only API paths answered without an access token. */
const PUBLIC_API_PATHS = [
  '/api/health',
  '/api/config',
  '/api/openapi.json',
  // Unsubscribing from alert emails: the token of the email's link is the proof.
  '/api/user/unsubscribe',
  '/api/user/unsubscribe/one-click',
  // Rating an alert from its email: the token of the link is the proof.
  '/api/feedback',
  // The mute links of alert emails, likewise.
  '/api/mutes',
];

/**
 * Builds the whole HTTP surface without listening, so tests call `app.request()` or serve it
 * on a random port: /api (the product API), /idp (the embedded identity service), and the web app.
 */
export function createApp(deps: AppDeps) {
  const onError = createErrorHandler(deps.logger);
  const app = new OpenAPIHono();
  app.onError(onError);
  app.use('*', requestId());
  app.use('*', warnUntrustedForwarding(deps.logger, deps.config.TRUST_PROXY));
  app.use(
    '*',
    createSecurityHeaders({
      connectOrigins: deps.identity.connectOrigins(),
      analyticsOrigins: deps.config.POSTHOG_KEY ? analyticsOrigins(deps.config.POSTHOG_HOST) : [],
    }),
  );

  app.use(
    '/api/*',
    unknownApiPathsAnswer404(() => app.routes),
  );

  const streamTickets = lazyStreamTickets(deps);
  const api = createApiRouter();
  registerSecuritySchemes(api);
  api.onError(onError);
  api.use('*', requestLog(deps.logger));
  api.use(
    '*',
    bodyLimit({
      maxSize: 256 * 1024,
      onError: (c) => jsonError(c, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 256 KB.'),
    }),
  );
  api.use(
    '*',
    requireAuth({
      identity: deps.identity,
      logger: deps.logger,
      publicPaths: PUBLIC_API_PATHS,
      tickets: {
        paths: [EVENTS_PATH],
        redeem: async (ticket) => (await streamTickets()).redeem(ticket),
      },
      trustProxy: deps.config.TRUST_PROXY,
      apiKeys: {
        authenticate: (key) => authenticateApiKey({ db: deps.database.db }, key),
        requestsPerMinute: deps.config.API_KEY_REQUESTS_PER_MINUTE,
      },
    }),
  );
  api.route('/', createHealthRoutes(deps));
  api.route('/', createPublicConfigRoutes(deps));
  api.route('/', createUserRoutes(deps));
  api.route('/', createApiKeyRoutes(deps));
  api.route('/', createMonitorRoutes(deps));
  api.route('/', createMatchRoutes(deps));
  const live = new LiveMatches({
    db: deps.database.db,
    events: deps.matchEvents ?? new MatchEvents(),
    logger: deps.logger,
    ...(deps.liveFeed?.pollMs ? { pollMs: deps.liveFeed.pollMs } : {}),
  });
  api.route(
    '/',
    createEventRoutes({
      live,
      tickets: streamTickets,
      identity: deps.identity,
      logger: deps.logger,
      ...(deps.liveFeed?.heartbeatMs ? { heartbeatMs: deps.liveFeed.heartbeatMs } : {}),
      ...(deps.liveFeed?.sessionCheckMs ? { sessionCheckMs: deps.liveFeed.sessionCheckMs } : {}),
    }),
  );
  api.route('/', createEmailAlertRoutes(deps));
  api.route('/', createMuteRoutes(deps));
  api.route('/', createMonitorWebhookRoutes(deps));
  api.route('/', createEmailRoutes(deps));
  api.route('/', createFeedRoutes(deps));
  api.route('/', createAlertFeedRoutes(deps));
  api.doc31('/openapi.json', {
    openapi: '3.1.0',
    info: { title: 'Earshot API', version: deps.version },
  });
  // Registered last: a known path with a method no route serves (the unknown paths were answered
  // before authentication). A sub-app's notFound handler is not consulted once it is mounted.
  api.all('*', (c) =>
    jsonError(c, 'NOT_FOUND', `There is no API endpoint ${c.req.method} ${c.req.path}.`),
  );
  app.route('/api', api);

  app.route(API_DOCS_PATH, createApiDocsPage());
  app.route('/mcp', createMcpRoutes(deps));
  app.route(ALERT_FEED_FILES_PATH, createAlertFeedFiles(deps));
  if (deps.identity.routes) app.route('/idp', deps.identity.routes);
  if (deps.webRoot) app.route('/', createStaticWeb(deps.webRoot));
  return app;
}

/**
 * The live feed's tickets, under a key every web process reads from the database (made on first
 * use), loaded once; a failed load is tried again by the next request.
 */
const liveFeedNow = (clock: Clock) => () => clock.now().getTime();

function lazyStreamTickets(deps: Pick<AppDeps, 'database' | 'liveFeed'>) {
  let loading: Promise<StreamTickets> | undefined;
  return () => {
    loading ??= loadServerSecret(deps.database.db, 'events-ticket').then(
      (secret) =>
        createStreamTickets(secret, {
          ...(deps.liveFeed?.ticketTtlMs ? { ttlMs: deps.liveFeed.ticketTtlMs } : {}),
          ...(deps.liveFeed?.clock ? { now: liveFeedNow(deps.liveFeed.clock) } : {}),
        }),
      (failure) => {
        loading = undefined;
        throw failure;
      },
    );
    return loading;
  };
}
