import { createRoute, z } from '@hono/zod-openapi';
import { testMonitorWebhook } from '../../core/webhooks/test-monitor-webhook.ts';
import { systemClock } from '../../platform/clock.ts';
import { webhookTestResultSchema } from '../../shared/webhook.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedIn,
} from '../http/api-router.ts';
import { createPerUserLimit } from '../http/per-user-limit.ts';

/** POST /api/monitors/:id/webhook/test: a sample call to the monitor's webhook, for its owner. */

const testRoute = createRoute({
  method: 'post',
  path: '/monitors/{id}/webhook/test',
  tags: ['monitors'],
  summary: 'Send a sample call to the monitor’s webhook and say how it went',
  security: signedIn,
  request: { params: z.object({ id: z.string() }) },
  responses: {
    200: {
      description: 'The call was made; `delivered` says whether the webhook took it',
      ...jsonContent(webhookTestResultSchema),
    },
    ...errorResponses(401, 429),
    404: errorResponse('No such monitor of the signed-in user, or it has no webhook'),
  },
});

const TESTS_PER_MINUTE = 10;

export function createMonitorWebhookRoutes(deps: Pick<AppDeps, 'database' | 'config' | 'clock'>) {
  const db = deps.database.db;
  const clock = deps.clock ?? systemClock;
  // Each test makes an outgoing request: a few a minute per user is plenty for a person.
  const limitTests = createPerUserLimit(TESTS_PER_MINUTE, 'webhook tests');
  const app = createApiRouter();
  app.openapi(testRoute, async (c) => {
    const userId = c.get('auth').claims.sub;
    limitTests(userId);
    const result = await testMonitorWebhook(
      { db, config: deps.config, clock },
      { userId, monitorId: c.req.valid('param').id },
    );
    return c.json(result, 200);
  });
  return app;
}
