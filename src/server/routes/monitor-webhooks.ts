import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { testMonitorWebhook } from '../../core/webhooks/test-monitor-webhook.ts';
import { MonitorNotFoundError, NoWebhookError } from '../../core/webhooks/webhook-errors.ts';
import { systemClock } from '../../platform/clock.ts';
import { apiErrorBodySchema } from '../../shared/api-error.ts';
import { webhookTestResultSchema } from '../../shared/webhook.ts';
import type { AppDeps } from '../app-deps.ts';
import { AppError, validationError } from '../http/errors.ts';
import type { AuthEnv } from '../http/require-auth.ts';

/** POST /api/monitors/:id/webhook/test: a sample call to the monitor's webhook, for its owner. */

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: apiErrorBodySchema } },
});

const testRoute = createRoute({
  method: 'post',
  path: '/monitors/{id}/webhook/test',
  tags: ['monitors'],
  summary: 'Send a sample call to the monitor’s webhook and say how it went',
  security: [{ accessToken: [] }],
  request: { params: z.object({ id: z.string() }) },
  responses: {
    200: {
      description: 'The call was made; `delivered` says whether the webhook took it',
      content: { 'application/json': { schema: webhookTestResultSchema } },
    },
    401: error('No valid access token'),
    404: error('No such monitor of the signed-in user, or it has no webhook'),
    429: error('Too many tests; see Retry-After'),
  },
});

const TESTS_PER_MINUTE = 10;

export function createMonitorWebhookRoutes(deps: Pick<AppDeps, 'database' | 'config' | 'clock'>) {
  const db = deps.database.db;
  const clock = deps.clock ?? systemClock;
  // Each test makes an outgoing request: a few a minute per user is plenty for a person.
  const recent = new Map<string, number[]>();
  const app = new OpenAPIHono<AuthEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
  app.openapi(testRoute, async (c) => {
    const userId = c.get('auth').claims.sub;
    const now = Date.now();
    const times = (recent.get(userId) ?? []).filter((at) => now - at < 60_000);
    if (times.length >= TESTS_PER_MINUTE) {
      c.header('Retry-After', String(Math.ceil((60_000 - (now - (times[0] ?? now))) / 1000)));
      throw new AppError('RATE_LIMITED', 'Too many webhook tests. Try again in a minute.');
    }
    recent.set(userId, [...times, now]);
    try {
      const result = await testMonitorWebhook(
        { db, config: deps.config, clock },
        { userId, monitorId: c.req.valid('param').id },
      );
      return c.json(result, 200);
    } catch (failure) {
      if (failure instanceof MonitorNotFoundError || failure instanceof NoWebhookError)
        throw new AppError('NOT_FOUND', failure.message);
      throw failure;
    }
  });
  return app;
}
