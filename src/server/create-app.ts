import { OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import { requestId } from 'hono/request-id';
import type { AppDeps } from './app-deps.ts';
import { createApiRouter, registerAccessTokenScheme } from './http/api-router.ts';
import { createErrorHandler, jsonError } from './http/errors.ts';
import { requestLog } from './http/request-log.ts';
import { requireAuth } from './http/require-auth.ts';
import { analyticsOrigins, createSecurityHeaders } from './http/security-headers.ts';
import { createStaticWeb } from './http/static-web.ts';
import { unknownApiPathsAnswer404 } from './http/unknown-api-paths.ts';
import { createHealthRoutes } from './routes/health.ts';
import { createPublicConfigRoutes } from './routes/public-config.ts';
import { createUserRoutes } from './routes/user.ts';

/** The only API paths answered without an access token. */
const PUBLIC_API_PATHS = [
  '/api/health',
  '/api/config',
  '/api/openapi.json',
  // The one-click unsubscribe link of alert e-mails; its route comes with delivery (issue #14).
  '/api/user/unsubscribe',
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

  const api = createApiRouter();
  registerAccessTokenScheme(api);
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
      trustProxy: deps.config.TRUST_PROXY,
    }),
  );
  api.route('/', createHealthRoutes(deps));
  api.route('/', createPublicConfigRoutes(deps));
  api.route('/', createUserRoutes(deps));
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

  if (deps.identity.routes) app.route('/idp', deps.identity.routes);
  if (deps.webRoot) app.route('/', createStaticWeb(deps.webRoot));
  return app;
}
