import { createRoute, z } from '@hono/zod-openapi';
import { listEmails } from '../../core/delivery/list-deliveries.ts';
import { sendAgain } from '../../core/delivery/send-again.ts';
import {
  DELIVERY_HISTORY_SIZE,
  deliveryIdSchema,
  deliverySchema,
} from '../../shared/deliveries.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedIn,
} from '../http/api-router.ts';

/**
 * /api/emails: the emails Earshot sent or tried to send the signed-in user (alerts, tests,
 * notices), read from the delivery outbox, and sending a failed one again. Never the address or
 * the body: only the subject, as a read key may list them.
 */

const idParams = z.object({
  id: deliveryIdSchema.openapi({ param: { name: 'id', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/emails',
  tags: ['emails'],
  summary: `The user’s last ${DELIVERY_HISTORY_SIZE} emails, newest first: sent, deferred, failed, and why`,
  security: signedIn,
  responses: {
    200: { description: 'The emails', ...jsonContent(z.array(deliverySchema)) },
    ...errorResponses(401, 403),
  },
});

const sendAgainRoute = createRoute({
  method: 'post',
  path: '/emails/{id}/send-again',
  tags: ['emails'],
  summary: 'Queue a failed email again, as it was; it is sent within seconds',
  security: signedIn,
  request: { params: idParams },
  responses: {
    200: { description: 'The email, queued again', ...jsonContent(deliverySchema) },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No such email of the signed-in user'),
    409: errorResponse('The email has not failed'),
  },
});

export function createEmailRoutes(deps: Pick<AppDeps, 'database'>) {
  const db = deps.database.db;
  const app = createApiRouter();
  app.openapi(listRoute, async (c) =>
    c.json(await listEmails({ db }, c.get('auth').claims.sub), 200),
  );
  app.openapi(sendAgainRoute, async (c) => {
    const input = {
      userId: c.get('auth').claims.sub,
      channel: 'email' as const,
      id: Number(c.req.valid('param').id),
    };
    return c.json(await sendAgain({ db }, input), 200);
  });
  return app;
}
