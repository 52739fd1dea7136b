import { createRoute, z } from '@hono/zod-openapi';
import { correctMatchSignals } from '../../core/matches/correct-match-signals.ts';
import { dismissMatch } from '../../core/matches/dismiss-match.ts';
import { followThread } from '../../core/matches/follow-thread.ts';
import { markMatchesRead } from '../../core/matches/mark-matches-read.ts';
import { matchStats } from '../../core/matches/match-stats.ts';
import { rateMatch } from '../../core/matches/rate-match.ts';
import { setMatchRead } from '../../core/matches/set-match-read.ts';
import { exportMatchesCsv } from '../../matches/export-matches-csv.ts';
import { listMatchesJson } from '../../matches/list-matches.ts';
import { systemClock } from '../../platform/clock.ts';
import {
  exportMatchesQuerySchema,
  listMatchesQuerySchema,
  MATCH_ID_PATTERN,
  markMatchesReadBodySchema,
  markMatchesReadResultSchema,
  matchFeedbackBodySchema,
  matchPageSchema,
  matchSchema,
  matchStatsQuerySchema,
  matchStatsSchema,
  updateMatchBodySchema,
  updateMatchSignalsBodySchema,
} from '../../shared/match.ts';
import type { AppDeps } from '../app-deps.ts';
import { createApiRouter, errorResponses, jsonContent, signedIn } from '../http/api-router.ts';
import { jsonTextResponse } from '../http/json-text-response.ts';

/**
 * /api/matches: the signed-in user's alerts. Every verb is scoped by `auth.claims.sub` inside
 * its data function: another user's match id answers 404, another user's monitor id finds nothing.
 */

const idParams = z.object({
  // Built here rather than from matchIdSchema: zod's schemas get `.openapi` only when made after
  // @hono/zod-openapi loads, and the shared one may be made before.
  id: z
    .string()
    .regex(MATCH_ID_PATTERN, 'must be an alert id')
    .openapi({ param: { name: 'id', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/matches',
  tags: ['matches'],
  summary: 'The user’s matches, newest first, a page at a time (keyset pagination)',
  security: signedIn,
  request: { query: listMatchesQuerySchema },
  responses: {
    200: { description: 'A page of matches', ...jsonContent(matchPageSchema) },
    ...errorResponses(400, 401),
  },
});

const statsRoute = createRoute({
  method: 'get',
  path: '/matches/stats',
  tags: ['matches'],
  summary: 'Matches per day and monitor, the days in the user’s time zone',
  security: signedIn,
  request: { query: matchStatsQuerySchema },
  responses: {
    200: {
      description: 'Counts per day and monitor (and sentiment, with by=sentiment)',
      ...jsonContent(matchStatsSchema),
    },
    ...errorResponses(400, 401),
  },
});

const exportRoute = createRoute({
  method: 'get',
  path: '/matches/export',
  tags: ['matches'],
  summary: 'Every match of the filters as CSV (RFC 4180, header row, newest first), streamed',
  security: signedIn,
  request: { query: exportMatchesQuerySchema },
  responses: {
    200: {
      description: 'The CSV; cells starting with = + - @ are prefixed with an apostrophe',
      content: { 'text/csv': { schema: z.string() } },
    },
    ...errorResponses(400, 401),
  },
});

const markReadRoute = createRoute({
  method: 'post',
  path: '/matches/mark-read',
  tags: ['matches'],
  summary: 'Mark every unread match read, or those of one monitor',
  security: signedIn,
  request: { body: { required: true, ...jsonContent(markMatchesReadBodySchema) } },
  responses: {
    200: { description: 'How many were marked', ...jsonContent(markMatchesReadResultSchema) },
    ...errorResponses(400, 401),
  },
});

const updateRoute = createRoute({
  method: 'patch',
  path: '/matches/{id}',
  tags: ['matches'],
  summary: 'Mark a match read or unread',
  security: signedIn,
  request: { params: idParams, body: { required: true, ...jsonContent(updateMatchBodySchema) } },
  responses: {
    200: { description: 'The match', ...jsonContent(matchSchema) },
    ...errorResponses(400, 401, 404),
  },
});

const feedbackRoute = createRoute({
  method: 'put',
  path: '/matches/{id}/feedback',
  tags: ['matches'],
  summary: 'Rate a match relevant or not relevant (null takes the rating back)',
  description:
    'Teaches the monitor’s relevance model and scores its newest 1,000 matches again; the answer is the match with its new rating and score.',
  security: signedIn,
  request: { params: idParams, body: { required: true, ...jsonContent(matchFeedbackBodySchema) } },
  responses: {
    200: { description: 'The match', ...jsonContent(matchSchema) },
    ...errorResponses(400, 401, 404),
  },
});

const correctSignalsRoute = createRoute({
  method: 'put',
  path: '/matches/{id}/signals',
  tags: ['matches'],
  summary:
    'Correct the intents, sentiment or language of a match (and of the user’s other matches of its item)',
  security: signedIn,
  request: {
    params: idParams,
    body: { required: true, ...jsonContent(updateMatchSignalsBodySchema) },
  },
  responses: {
    200: { description: 'The match, corrected', ...jsonContent(matchSchema) },
    ...errorResponses(400, 401, 404),
  },
});

const dismissRoute = createRoute({
  method: 'delete',
  path: '/matches/{id}',
  tags: ['matches'],
  summary: 'Dismiss a match',
  security: signedIn,
  request: { params: idParams },
  responses: {
    204: { description: 'Dismissed' },
    ...errorResponses(400, 401, 404),
  },
});

const followResult = z.object({ following: z.boolean(), until: z.string().nullable() });
const followRoute = (method: 'post' | 'delete') =>
  createRoute({
    method,
    path: '/matches/{id}/follow',
    tags: ['matches'],
    summary:
      method === 'post'
        ? 'Follow the match’s thread: its new items are alerts for 7 days, with or without the words'
        : 'Stop following the match’s thread',
    security: signedIn,
    request: { params: idParams },
    responses: {
      200: {
        description: 'Whether the thread is followed, and until when',
        ...jsonContent(followResult),
      },
      ...errorResponses(400, 401, 404),
    },
  });

export function createMatchRoutes(deps: Pick<AppDeps, 'database' | 'clock'>) {
  const db = deps.database.db;
  const app = createApiRouter();
  app.openapi(listRoute, async (c) => {
    const input = { userId: c.get('auth').claims.sub, query: c.req.valid('query') };
    // The page's JSON text as stored, not parsed and written again (`listMatchesJson`).
    return jsonTextResponse(c, await listMatchesJson({ db }, input), 200, {
      'Cache-Control': 'no-store',
    });
  });
  app.openapi(exportRoute, (c) => {
    const { format: _csv, ...filters } = c.req.valid('query');
    const body = exportMatchesCsv({ db }, { userId: c.get('auth').claims.sub, filters });
    return c.body(body, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': 'attachment; filename="earshot-matches.csv"',
      'Cache-Control': 'no-store',
    });
  });
  app.openapi(statsRoute, async (c) => {
    const { days, by } = c.req.valid('query');
    return c.json(await matchStats({ db }, { userId: c.get('auth').claims.sub, days, by }), 200);
  });
  app.openapi(correctSignalsRoute, async (c) => {
    const input = {
      userId: c.get('auth').claims.sub,
      matchId: c.req.valid('param').id,
      signals: c.req.valid('json'),
    };
    return c.json(await correctMatchSignals({ db }, input), 200);
  });
  app.openapi(markReadRoute, async (c) => {
    const input = { userId: c.get('auth').claims.sub, monitorId: c.req.valid('json').monitorId };
    return c.json(await markMatchesRead({ db }, input), 200);
  });
  app.openapi(updateRoute, async (c) => {
    const input = {
      userId: c.get('auth').claims.sub,
      matchId: c.req.valid('param').id,
      read: c.req.valid('json').read,
    };
    return c.json(await setMatchRead({ db }, input), 200);
  });
  app.openapi(feedbackRoute, async (c) => {
    const input = {
      userId: c.get('auth').claims.sub,
      matchId: c.req.valid('param').id,
      rating: c.req.valid('json').rating,
    };
    return c.json(await rateMatch({ db }, input), 200);
  });
  app.openapi(dismissRoute, async (c) => {
    await dismissMatch(
      { db },
      { userId: c.get('auth').claims.sub, matchId: c.req.valid('param').id },
    );
    return c.body(null, 204);
  });
  for (const method of ['post', 'delete'] as const) {
    app.openapi(followRoute(method), async (c) => {
      const result = await followThread(
        { db },
        {
          userId: c.get('auth').claims.sub,
          matchId: c.req.valid('param').id,
          follow: method === 'post',
          now: (deps.clock ?? systemClock).now(),
        },
      );
      return c.json(result, 200);
    });
  }
  return app;
}
