import { createRoute, z } from '@hono/zod-openapi';
import { queueTestEmail } from '../../core/delivery/queue-test-email.ts';
import { unsubscribeByToken } from '../../core/delivery/unsubscribe-by-token.ts';
import { loadUnsubscribeTokens, type UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';
import { systemClock } from '../../platform/clock.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedIn,
} from '../http/api-router.ts';

/**
 * The email-alert endpoints beside the user record: the public unsubscribe link of alert emails
 * (GET, and the RFC 8058 one-click POST a mail client sends) and "send me a test email".
 */

const unsubscribed = {
  description: 'Email alerts are off (also when they already were)',
  ...jsonContent(z.object({ unsubscribed: z.literal(true) })),
};
const badToken = errorResponse('The token is missing or not valid; nothing changed');
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

const unsubscribePost = createRoute({
  method: 'post',
  path: '/user/unsubscribe',
  tags: ['user'],
  summary: 'One-click unsubscribe (RFC 8058: form body List-Unsubscribe=One-Click)',
  request: { query },
  responses: { 200: unsubscribed, 400: badToken },
});

const testEmail = createRoute({
  method: 'post',
  path: '/user/test-email',
  tags: ['user'],
  summary: 'Send the signed-in user a test alert email',
  security: signedIn,
  responses: {
    202: {
      description: 'Queued; it arrives within seconds',
      ...jsonContent(z.object({ queued: z.literal(true), to: z.string() })),
    },
    ...errorResponses(401, 429),
    404: errorResponse('No record yet'),
  },
});

export function createEmailAlertRoutes(deps: Pick<AppDeps, 'database' | 'config' | 'clock'>) {
  const db = deps.database.db;
  const clock = deps.clock ?? systemClock;
  let tokens: Promise<UnsubscribeTokens> | undefined;
  const loadTokens = () => {
    tokens ??= loadUnsubscribeTokens(db, deps.config.UNSUBSCRIBE_SECRET).catch((failure) => {
      tokens = undefined;
      throw failure;
    });
    return tokens;
  };

  const app = createApiRouter();
  app.openapi(unsubscribeGet, async (c) => {
    c.header('Cache-Control', 'no-store');
    const token = c.req.valid('query').unsubscribeToken;
    return c.json(await unsubscribeByToken({ db, tokens: await loadTokens() }, token), 200);
  });
  app.openapi(unsubscribePost, async (c) => {
    c.header('Cache-Control', 'no-store');
    let token = c.req.valid('query').unsubscribeToken;
    if (token === undefined) {
      // Some clients put the token in the form body rather than keep the link's query string.
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      if (typeof form.unsubscribeToken === 'string') token = form.unsubscribeToken;
    }
    return c.json(await unsubscribeByToken({ db, tokens: await loadTokens() }, token), 200);
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
