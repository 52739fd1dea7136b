import { createRoute, z } from '@hono/zod-openapi';
import { deleteAlertFeed } from '../../core/alert-feeds/delete-alert-feed.ts';
import { listAlertFeeds } from '../../core/alert-feeds/list-alert-feeds.ts';
import { resetAlertFeed } from '../../core/alert-feeds/reset-alert-feed.ts';
import {
  alertFeedSchema,
  createdAlertFeedSchema,
  resetAlertFeedBodySchema,
} from '../../shared/alert-feeds.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedIn,
} from '../http/api-router.ts';

/**
 * /api/alert-feeds: the links of the signed-in user's alert feeds (docs/decisions/0039-alert-feeds.md).
 * Listing takes a read key; making, resetting and turning off a link take a write key (they
 * change what a URL outside opens). The feeds themselves are read at /feeds/<token>/… without
 * signing in (src/server/http/alert-feed-files.ts).
 */

const idParams = z.object({
  id: z.uuid('must be an alert feed id').openapi({ param: { name: 'id', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/alert-feeds',
  tags: ['alert feeds'],
  summary: 'The user’s alert feeds that have a link (never the link: it is shown once)',
  security: signedIn,
  responses: {
    200: { description: 'The feeds', ...jsonContent(z.array(alertFeedSchema)) },
    ...errorResponses(401, 403),
  },
});

const resetRoute = createRoute({
  method: 'post',
  path: '/alert-feeds',
  tags: ['alert feeds'],
  summary:
    'Make the link of a monitor’s feed (`monitorId`) or of all matches (`monitorId: null`), or reset it: the old link stops working',
  security: signedIn,
  request: { body: { required: true, ...jsonContent(resetAlertFeedBodySchema) } },
  responses: {
    200: {
      description:
        'The feed with its URLs in RSS, Atom and JSON Feed: the only time they are shown',
      ...jsonContent(createdAlertFeedSchema),
    },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No such monitor of the signed-in user'),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/alert-feeds/{id}',
  tags: ['alert feeds'],
  summary: 'Turn a feed’s link off: it answers 404 from now on',
  security: signedIn,
  request: { params: idParams },
  responses: {
    204: { description: 'Turned off' },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No such feed, or not the signed-in user’s'),
  },
});

export function createAlertFeedRoutes(deps: Pick<AppDeps, 'database' | 'config'>) {
  const db = deps.database.db;
  const app = createApiRouter();
  app.openapi(listRoute, async (c) =>
    c.json(await listAlertFeeds({ db }, c.get('auth').claims.sub), 200),
  );
  app.openapi(resetRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    const input = { userId: c.get('auth').claims.sub, body: c.req.valid('json') };
    return c.json(await resetAlertFeed({ db, config: deps.config }, input), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    await deleteAlertFeed(
      { db },
      { userId: c.get('auth').claims.sub, feedId: c.req.valid('param').id },
    );
    return c.body(null, 204);
  });
  return app;
}
