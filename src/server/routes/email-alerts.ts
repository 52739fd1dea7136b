import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { queueTestEmail } from '../../core/delivery/queue-test-email.ts';
import { unsubscribeByToken } from '../../core/delivery/unsubscribe-by-token.ts';
import { createUnsubscribeTokenLoader } from '../../core/delivery/unsubscribe-token-loader.ts';
import { applyRatingLink, readRatingLink } from '../../core/matches/rate-by-link.ts';
import { systemClock } from '../../platform/clock.ts';
import { applyRatingLinkBodySchema, ratingLinkSchema } from '../../shared/match.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedInOnly,
} from '../http/api-router.ts';

/**
 * The email-alert endpoints beside the user record: unsubscribing without signing in, and "send
 * me a test email".
 *
 * Mail scanners and link previews fetch every URL of a message (GET and HEAD), so no URL a
 * message carries acts on a fetch. The visible link goes to the `/unsubscribe` page, which asks
 * for a click and then calls `GET /api/user/unsubscribe` (the spec's call). `List-Unsubscribe`
 * points at `/api/user/unsubscribe/one-click`, where only the RFC 8058 POST a mail client sends
 * acts; a GET of it sends the browser to the same confirming page. A HEAD never acts.
 */

const unsubscribed = {
  description: 'Email alerts are off (also when they already were)',
  ...jsonContent(z.object({ unsubscribed: z.literal(true) })),
};
const badToken = errorResponse('The token is missing or not valid; nothing changed');
const badLink = errorResponse(
  'The token is missing or not valid, or the body is not; nothing changed',
);
const query = z.object({
  unsubscribeToken: z.string().optional().openapi({ description: 'The token of the email link' }),
});

const unsubscribeGet = createRoute({
  method: 'get',
  path: '/user/unsubscribe',
  tags: ['user'],
  summary: 'Turn email alerts off with the token of an alert email’s link (no sign-in)',
  request: { query },
  responses: { 200: unsubscribed, 400: badToken },
});

const oneClickGet = createRoute({
  method: 'get',
  path: '/user/unsubscribe/one-click',
  tags: ['user'],
  summary:
    'The List-Unsubscribe link opened in a browser: changes nothing, shows the page that asks',
  request: { query },
  responses: { 303: { description: 'To `/unsubscribe?token=…`, which asks for one click' } },
});

const oneClickPost = createRoute({
  method: 'post',
  path: '/user/unsubscribe/one-click',
  tags: ['user'],
  summary:
    'One-click unsubscribe of List-Unsubscribe (RFC 8058: form body List-Unsubscribe=One-Click)',
  request: { query },
  responses: { 200: unsubscribed, 400: badToken },
});

const unsubscribePost = createRoute({
  method: 'post',
  path: '/user/unsubscribe',
  tags: ['user'],
  summary: 'One-click unsubscribe (RFC 8058), as List-Unsubscribe of earlier emails named it',
  request: { query },
  responses: { 200: unsubscribed, 400: badToken },
});

const testEmail = createRoute({
  method: 'post',
  path: '/user/test-email',
  tags: ['user'],
  summary: 'Send the signed-in user a test alert email',
  security: signedInOnly,
  responses: {
    202: {
      description: 'Queued; it arrives within seconds',
      ...jsonContent(z.object({ queued: z.literal(true), to: z.string() })),
    },
    ...errorResponses(401, 429),
    404: errorResponse('No record yet'),
  },
});

const ratingLinkGet = createRoute({
  method: 'get',
  path: '/feedback',
  tags: ['matches'],
  summary: 'What an alert email’s rating link would do (no sign-in; changes nothing)',
  request: {
    query: z.object({
      token: z.string().optional().openapi({ description: 'The token of the email link' }),
    }),
  },
  responses: {
    200: { description: 'The rating, the alert, its rating now', ...jsonContent(ratingLinkSchema) },
    400: badLink,
    404: errorResponse('The alert was dismissed'),
  },
});

const ratingLinkPost = createRoute({
  method: 'post',
  path: '/feedback',
  tags: ['matches'],
  summary: 'Rate an alert with the token of its email link (no sign-in); `undo` takes it back',
  request: { body: { required: true, ...jsonContent(applyRatingLinkBodySchema) } },
  responses: {
    200: { description: 'The rating, the alert, its rating now', ...jsonContent(ratingLinkSchema) },
    400: badLink,
    404: errorResponse('The alert was dismissed'),
  },
});

export function createEmailAlertRoutes(deps: Pick<AppDeps, 'database' | 'config' | 'clock'>) {
  const db = deps.database.db;
  const clock = deps.clock ?? systemClock;
  const loadTokens = createUnsubscribeTokenLoader(db, deps.config.UNSUBSCRIBE_SECRET);

  const app = createApiRouter();
  // Hono answers HEAD with the GET handler: a HEAD is a scanner's probe, never a request to act.
  app.use('/user/unsubscribe', async (c, next) => {
    if (c.req.method !== 'HEAD') return next();
    c.header('Cache-Control', 'no-store');
    return c.body(null, 200);
  });
  app.openapi(unsubscribeGet, async (c) => {
    c.header('Cache-Control', 'no-store');
    const token = c.req.valid('query').unsubscribeToken;
    return c.json(await unsubscribeByToken({ db, tokens: await loadTokens() }, token), 200);
  });
  app.openapi(oneClickGet, (c) => {
    c.header('Cache-Control', 'no-store');
    const token = c.req.valid('query').unsubscribeToken;
    const page = token ? `/unsubscribe?token=${encodeURIComponent(token)}` : '/unsubscribe';
    return c.redirect(page, 303);
  });
  const oneClick = async (c: Context) => {
    c.header('Cache-Control', 'no-store');
    let token = c.req.query('unsubscribeToken');
    if (token === undefined) {
      // Some clients put the token in the form body rather than keep the link's query string.
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      if (typeof form.unsubscribeToken === 'string') token = form.unsubscribeToken;
    }
    return c.json(await unsubscribeByToken({ db, tokens: await loadTokens() }, token), 200);
  };
  app.openapi(oneClickPost, oneClick);
  app.openapi(unsubscribePost, oneClick);
  app.openapi(ratingLinkGet, async (c) => {
    c.header('Cache-Control', 'no-store');
    const token = c.req.valid('query').token;
    return c.json(await readRatingLink({ db, tokens: await loadTokens() }, token), 200);
  });
  app.openapi(ratingLinkPost, async (c) => {
    c.header('Cache-Control', 'no-store');
    const { token, undo } = c.req.valid('json');
    return c.json(await applyRatingLink({ db, tokens: await loadTokens() }, { token, undo }), 200);
  });
  app.openapi(testEmail, async (c) => {
    const queued = await queueTestEmail(
      { db, config: deps.config, clock, tokens: await loadTokens() },
      c.get('auth').claims.sub,
    );
    return c.json(queued, 202);
  });
  return app;
}
