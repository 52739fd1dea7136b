import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import {
  NoUserRecordError,
  queueTestEmail,
  TestEmailTooSoonError,
} from '../../core/delivery/queue-test-email.ts';
import {
  InvalidUnsubscribeTokenError,
  unsubscribeByToken,
} from '../../core/delivery/unsubscribe-by-token.ts';
import { loadUnsubscribeTokens, type UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';
import { systemClock } from '../../platform/clock.ts';
import { apiErrorBodySchema } from '../../shared/api-error.ts';
import type { AppDeps } from '../app-deps.ts';
import { AppError, validationError } from '../http/errors.ts';
import type { AuthEnv } from '../http/require-auth.ts';

/**
 * The email-alert endpoints that are not the user record: the public unsubscribe link of alert
 * emails (GET, and the RFC 8058 one-click POST a mail client sends) and "send me a test email".
 */

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: apiErrorBodySchema } },
});
const unsubscribed = {
  description: 'Email alerts are off (also when they already were)',
  content: { 'application/json': { schema: z.object({ unsubscribed: z.literal(true) }) } },
};
const query = z.object({
  unsubscribeToken: z.string().optional().openapi({ description: 'The token of the email link' }),
});

const unsubscribeGet = createRoute({
  method: 'get',
  path: '/user/unsubscribe',
  tags: ['user'],
  summary: 'Turn email alerts off with the token of an alert email’s link (no sign-in)',
  request: { query },
  responses: {
    200: unsubscribed,
    400: error('The token is missing or not valid; nothing changed'),
  },
});

const unsubscribePost = createRoute({
  method: 'post',
  path: '/user/unsubscribe',
  tags: ['user'],
  summary: 'One-click unsubscribe (RFC 8058: form body List-Unsubscribe=One-Click)',
  request: { query },
  responses: {
    200: unsubscribed,
    400: error('The token is missing or not valid; nothing changed'),
  },
});

const testEmail = createRoute({
  method: 'post',
  path: '/user/test-email',
  tags: ['user'],
  summary: 'Send the signed-in user a test alert email',
  security: [{ accessToken: [] }],
  responses: {
    202: {
      description: 'Queued; it arrives within seconds',
      content: {
        'application/json': { schema: z.object({ queued: z.literal(true), to: z.string() }) },
      },
    },
    401: error('No valid access token'),
    404: error('No record yet'),
    429: error('One test email a minute'),
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
  const unsubscribe = async (token: string | undefined) => {
    try {
      return await unsubscribeByToken({ db, tokens: await loadTokens() }, token);
    } catch (failure) {
      if (failure instanceof InvalidUnsubscribeTokenError)
        throw new AppError('BAD_REQUEST', failure.message);
      throw failure;
    }
  };

  const app = new OpenAPIHono<AuthEnv>({
    defaultHook: (result) => {
      if (!result.success) throw validationError(result.error);
    },
  });
  app.openapi(unsubscribeGet, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await unsubscribe(c.req.valid('query').unsubscribeToken), 200);
  });
  app.openapi(unsubscribePost, async (c) => {
    c.header('Cache-Control', 'no-store');
    let token = c.req.valid('query').unsubscribeToken;
    if (token === undefined) {
      // Some clients put the token in the form body rather than keep the link's query string.
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const fromBody = form.unsubscribeToken;
      if (typeof fromBody === 'string') token = fromBody;
    }
    return c.json(await unsubscribe(token), 200);
  });
  app.openapi(testEmail, async (c) => {
    try {
      const queued = await queueTestEmail(
        { db, config: deps.config, clock, tokens: await loadTokens() },
        c.get('auth').claims.sub,
      );
      return c.json(queued, 202);
    } catch (failure) {
      if (failure instanceof TestEmailTooSoonError) {
        c.header('Retry-After', String(failure.retryAfterSeconds));
        throw new AppError('RATE_LIMITED', failure.message);
      }
      if (failure instanceof NoUserRecordError) throw new AppError('NOT_FOUND', failure.message);
      throw failure;
    }
  });
  return app;
}
