import { createRoute, z } from '@hono/zod-openapi';
import { listWebhookCalls } from '../../core/delivery/list-deliveries.ts';
import { sendAgain } from '../../core/delivery/send-again.ts';
import { testMonitorWebhook } from '../../core/webhooks/test-monitor-webhook.ts';
import { systemClock } from '../../platform/clock.ts';
import {
  DELIVERY_HISTORY_SIZE,
  deliveryIdSchema,
  deliverySchema,
} from '../../shared/deliveries.ts';
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

/**
 * A monitor's webhook beyond its settings, for its owner: a sample call
 * (POST /api/monitors/:id/webhook/test), the last calls read from the outbox
 * (GET …/webhook/calls) and sending a failed one again (POST …/webhook/calls/:callId/send-again).
 */

const monitorParams = z.object({
  id: z.uuid('must be a monitor id').openapi({ param: { name: 'id', in: 'path' } }),
});
const callParams = monitorParams.extend({
  callId: deliveryIdSchema.openapi({ param: { name: 'callId', in: 'path' } }),
});

const callsRoute = createRoute({
  method: 'get',
  path: '/monitors/{id}/webhook/calls',
  tags: ['monitors'],
  summary: `The monitor’s last ${DELIVERY_HISTORY_SIZE} webhook calls, newest first: state, last attempt, status, duration, error`,
  security: signedIn,
  request: { params: monitorParams },
  responses: {
    200: { description: 'The calls', ...jsonContent(z.array(deliverySchema)) },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No such monitor of the signed-in user'),
  },
});

const sendAgainRoute = createRoute({
  method: 'post',
  path: '/monitors/{id}/webhook/calls/{callId}/send-again',
  tags: ['monitors'],
  summary: 'Queue a failed webhook call again, with its same body; it is sent within seconds',
  security: signedIn,
  request: { params: callParams },
  responses: {
    200: { description: 'The call, queued again', ...jsonContent(deliverySchema) },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No such call of this monitor of the signed-in user'),
    409: errorResponse('The call has not failed, or the webhook is paused or removed'),
  },
});

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
  app.openapi(callsRoute, async (c) => {
    const input = { userId: c.get('auth').claims.sub, monitorId: c.req.valid('param').id };
    return c.json(await listWebhookCalls({ db }, input), 200);
  });
  app.openapi(sendAgainRoute, async (c) => {
    const { id, callId } = c.req.valid('param');
    const input = {
      userId: c.get('auth').claims.sub,
      channel: 'webhook' as const,
      monitorId: id,
      id: Number(callId),
    };
    return c.json(await sendAgain({ db }, input), 200);
  });
  return app;
}
