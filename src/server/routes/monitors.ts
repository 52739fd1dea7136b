import { createRoute, z } from '@hono/zod-openapi';
import { coachMonitor } from '../../core/monitors/coach-monitor.ts';
import { createMonitor } from '../../core/monitors/create-monitor.ts';
import { deleteMonitor } from '../../core/monitors/delete-monitor.ts';
import { getMonitor } from '../../core/monitors/get-monitor.ts';
import { listMonitors } from '../../core/monitors/list-monitors.ts';
import { createPreviewGate } from '../../core/monitors/preview-gate.ts';
import { previewMonitor } from '../../core/monitors/preview-monitor.ts';
import { updateMonitor } from '../../core/monitors/update-monitor.ts';
import {
  createMonitorBodySchema,
  monitorCoachSchema,
  monitorPreviewSchema,
  monitorSchema,
  previewMonitorBodySchema,
  updateMonitorBodySchema,
} from '../../shared/monitor.ts';
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
 * /api/monitors: the signed-in user's saved queries. Every verb is scoped by `auth.claims.sub`
 * inside its data function, so another user's monitor id answers 404.
 */

const idParams = z.object({
  id: z.uuid('must be a monitor id').openapi({ param: { name: 'id', in: 'path' } }),
});
const queryProblem =
  'The query does not parse (`details: { position, message }`, position counted from 0), would match almost everything (or more than MONITOR_MAX_MATCH_PERCENT of recent items, on save), or a field is not valid';

const listRoute = createRoute({
  method: 'get',
  path: '/monitors',
  tags: ['monitors'],
  summary: 'The signed-in user’s monitors, oldest first',
  security: signedIn,
  responses: {
    200: { description: 'The monitors', ...jsonContent(z.array(monitorSchema)) },
    ...errorResponses(401),
  },
});

const createMonitorRoute = createRoute({
  method: 'post',
  path: '/monitors',
  tags: ['monitors'],
  summary: 'Save a new monitor',
  security: signedIn,
  request: { body: { required: true, ...jsonContent(createMonitorBodySchema) } },
  responses: {
    201: { description: 'The monitor', ...jsonContent(monitorSchema) },
    400: errorResponse(queryProblem),
    ...errorResponses(401),
    404: errorResponse('No user record yet: POST /api/user creates it'),
    409: errorResponse('The user already has MAX_MONITORS_PER_USER monitors (`details.limit`)'),
  },
});

const previewRoute = createRoute({
  method: 'post',
  path: '/monitors/preview',
  tags: ['monitors'],
  summary: 'What a query would have found in the last 7 days, and the alerts a day to expect',
  security: signedIn,
  request: { body: { required: true, ...jsonContent(previewMonitorBodySchema) } },
  responses: {
    200: { description: 'The preview', ...jsonContent(monitorPreviewSchema) },
    400: errorResponse(queryProblem),
    ...errorResponses(401, 429),
    409: errorResponse(
      'The user already has PREVIEWS_IN_FLIGHT_PER_USER (2) previews running (`details.limit`)',
    ),
  },
});

/** Previews a user may ask for a minute: typing sends one a third of a second at most. */
export const PREVIEWS_PER_MINUTE = 120;

const getRoute = createRoute({
  method: 'get',
  path: '/monitors/{id}',
  tags: ['monitors'],
  summary: 'One monitor',
  security: signedIn,
  request: { params: idParams },
  responses: {
    200: { description: 'The monitor', ...jsonContent(monitorSchema) },
    ...errorResponses(400, 401, 404),
  },
});

const coachRoute = createRoute({
  method: 'get',
  path: '/monitors/{id}/coach',
  tags: ['monitors'],
  summary: 'The query coach: query changes that leave out what its rated matches call not relevant',
  description:
    'Each suggestion is back-tested on the monitor’s newest 2,000 stored matches with the matcher; `scores` are its rated matches’ relevance, to count what a relevance threshold would keep.',
  security: signedIn,
  request: { params: idParams },
  responses: {
    200: { description: 'Ratings and suggestions', ...jsonContent(monitorCoachSchema) },
    ...errorResponses(400, 401, 404),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/monitors/{id}',
  tags: ['monitors'],
  summary: 'Change a monitor’s query, name, sources, pause, e-mail mute or webhook',
  security: signedIn,
  request: {
    params: idParams,
    body: { required: true, ...jsonContent(updateMonitorBodySchema) },
  },
  responses: {
    200: { description: 'The monitor', ...jsonContent(monitorSchema) },
    400: errorResponse(queryProblem),
    ...errorResponses(401, 404),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/monitors/{id}',
  tags: ['monitors'],
  summary: 'Delete a monitor and its matches',
  security: signedIn,
  request: { params: idParams },
  responses: {
    204: { description: 'Deleted' },
    ...errorResponses(400, 401, 404),
  },
});

export function createMonitorRoutes(deps: Pick<AppDeps, 'database' | 'config'>) {
  const db = deps.database.db;
  const { config } = deps;
  const gate = createPreviewGate({ sharePercent: config.PREVIEW_DB_SHARE_PERCENT });
  const previewBudget = { items: config.PREVIEW_BUDGET_ITEMS, ms: config.PREVIEW_BUDGET_MS };
  const previewLimit = createPerUserLimit(PREVIEWS_PER_MINUTE, 'previews');
  const breadth = { db, gate, maxMatchPercent: config.MONITOR_MAX_MATCH_PERCENT };
  const app = createApiRouter();
  app.openapi(listRoute, async (c) =>
    c.json(await listMonitors({ db }, c.get('auth').claims.sub), 200),
  );
  app.openapi(createMonitorRoute, async (c) => {
    const monitor = await createMonitor(
      { ...breadth, maxMonitorsPerUser: config.MAX_MONITORS_PER_USER },
      { userId: c.get('auth').claims.sub, body: c.req.valid('json') },
    );
    return c.json(monitor, 201);
  });
  app.openapi(previewRoute, async (c) => {
    const userId = c.get('auth').claims.sub;
    previewLimit(userId);
    const leave = gate.enter(userId);
    try {
      // The request's signal ends when the client goes away (the browser cancels the preview
      // of an older text as the user types): the preview stops at its next step.
      const preview = await previewMonitor(
        { db, gate, budget: previewBudget, signal: c.req.raw.signal },
        c.req.valid('json'),
      );
      return c.json(preview, 200);
    } finally {
      leave();
    }
  });
  app.openapi(getRoute, async (c) => {
    const input = { userId: c.get('auth').claims.sub, monitorId: c.req.valid('param').id };
    return c.json(await getMonitor({ db }, input), 200);
  });
  app.openapi(coachRoute, async (c) => {
    const input = { userId: c.get('auth').claims.sub, monitorId: c.req.valid('param').id };
    return c.json(await coachMonitor({ db }, input), 200, { 'Cache-Control': 'no-store' });
  });
  app.openapi(updateRoute, async (c) => {
    const input = {
      userId: c.get('auth').claims.sub,
      monitorId: c.req.valid('param').id,
      changes: c.req.valid('json'),
    };
    return c.json(await updateMonitor({ ...breadth, config }, input), 200);
  });
  app.openapi(deleteRoute, async (c) => {
    await deleteMonitor(
      { db },
      { userId: c.get('auth').claims.sub, monitorId: c.req.valid('param').id },
    );
    return c.body(null, 204);
  });
  return app;
}
