import { createRoute, z } from '@hono/zod-openapi';
import { addFeed } from '../../core/feeds/add-feed.ts';
import { listFeeds } from '../../core/feeds/list-feeds.ts';
import { previewFeed } from '../../core/feeds/preview-feed.ts';
import { removeFeed } from '../../core/feeds/remove-feed.ts';
import { updateFeed } from '../../core/feeds/update-feed.ts';
import {
  feedListSchema,
  feedPreviewSchema,
  feedSchema,
  feedUrlBodySchema,
  updateFeedBodySchema,
} from '../../shared/feeds.ts';
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
 * /api/feeds: the feeds and Discourse forums the signed-in user added by URL. Every verb is
 * scoped by `auth.claims.sub`; another user's feed id answers 404, even for the same URL.
 */

const idParams = z.object({
  id: z.uuid('must be a feed id').openapi({ param: { name: 'id', in: 'path' } }),
});
const unreadable =
  'The address is not http(s), is not allowed (private network), cannot be fetched, or is not a feed (`details[0].message` says which, in words)';

const listRoute = createRoute({
  method: 'get',
  path: '/feeds',
  tags: ['feeds'],
  summary: 'The signed-in user’s feeds, oldest first, each with its health',
  security: signedIn,
  responses: {
    200: { description: 'The feeds', ...jsonContent(feedListSchema) },
    ...errorResponses(401),
  },
});

const addRoute = createRoute({
  method: 'post',
  path: '/feeds',
  tags: ['feeds'],
  summary: 'Add a feed (RSS, Atom, JSON Feed), a Discourse forum, or a page that links a feed',
  security: signedIn,
  request: { body: { required: true, ...jsonContent(feedUrlBodySchema) } },
  responses: {
    201: { description: 'The feed', ...jsonContent(feedSchema) },
    400: errorResponse(unreadable),
    ...errorResponses(401, 429),
    409: errorResponse('The user already added this feed'),
    422: errorResponse('The user already has MAX_FEEDS_PER_USER feeds (`details.limit`)'),
  },
});

const previewRoute = createRoute({
  method: 'post',
  path: '/feeds/preview',
  tags: ['feeds'],
  summary: 'What an address is: its name, its kind and its last five items; nothing is saved',
  security: signedIn,
  request: { body: { required: true, ...jsonContent(feedUrlBodySchema) } },
  responses: {
    200: { description: 'The preview', ...jsonContent(feedPreviewSchema) },
    400: errorResponse(unreadable),
    ...errorResponses(401, 429),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/feeds/{id}',
  tags: ['feeds'],
  summary: 'Pause or resume a feed',
  security: signedIn,
  request: { params: idParams, body: { required: true, ...jsonContent(updateFeedBodySchema) } },
  responses: {
    200: { description: 'The feed', ...jsonContent(feedSchema) },
    ...errorResponses(400, 401, 404),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/feeds/{id}',
  tags: ['feeds'],
  summary: 'Remove a feed',
  security: signedIn,
  request: { params: idParams },
  responses: {
    204: { description: 'Removed' },
    ...errorResponses(400, 401, 404),
  },
});

/** Adding and previewing fetch another site: a few a minute per user is plenty for a person. */
const FETCHES_PER_MINUTE = 20;

export function createFeedRoutes(deps: Pick<AppDeps, 'database' | 'config'>) {
  const db = deps.database.db;
  const ctx = { db, config: deps.config };
  const limitFetches = createPerUserLimit(FETCHES_PER_MINUTE, 'feed look-ups');
  const app = createApiRouter();
  app.openapi(listRoute, async (c) =>
    c.json({ items: await listFeeds(ctx, { userId: c.get('auth').claims.sub }) }, 200),
  );
  app.openapi(addRoute, async (c) => {
    const userId = c.get('auth').claims.sub;
    limitFetches(userId);
    return c.json(await addFeed(ctx, { userId, url: c.req.valid('json').url }), 201);
  });
  app.openapi(previewRoute, async (c) => {
    limitFetches(c.get('auth').claims.sub);
    return c.json(await previewFeed(ctx, { url: c.req.valid('json').url }), 200);
  });
  app.openapi(updateRoute, async (c) => {
    const input = {
      userId: c.get('auth').claims.sub,
      id: c.req.valid('param').id,
      change: c.req.valid('json'),
    };
    return c.json(await updateFeed(ctx, input), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    await removeFeed(ctx, { userId: c.get('auth').claims.sub, id: c.req.valid('param').id });
    return c.body(null, 204);
  });
  return app;
}
