import { createRoute } from '@hono/zod-openapi';
import { publicConfigSchema } from '../../shared/public-config.ts';
import type { AppDeps } from '../app-deps.ts';
import { createApiRouter, jsonContent } from '../http/api-router.ts';

const route = createRoute({
  method: 'get',
  path: '/config',
  tags: ['system'],
  summary: 'Public runtime configuration for the browser (identity provider, analytics)',
  responses: {
    200: { description: 'The configuration', ...jsonContent(publicConfigSchema) },
  },
});

export function createPublicConfigRoutes(deps: AppDeps) {
  return createApiRouter().openapi(route, (c) => {
    // PUBLIC_URL, or http://HOST:PORT: never the request's Host header, which anyone can set.
    const origin = deps.config.publicUrl;
    const { POSTHOG_KEY, POSTHOG_HOST } = deps.config;
    c.header('Cache-Control', 'no-cache');
    return c.json(
      {
        identity: deps.identity.publicSettings(origin),
        analytics: POSTHOG_KEY ? { key: POSTHOG_KEY, host: POSTHOG_HOST } : null,
      },
      200,
    );
  });
}
