import { createRoute, z } from '@hono/zod-openapi';
import { createUnsubscribeTokenLoader } from '../../core/delivery/unsubscribe-token-loader.ts';
import { applyMute, describeMute, undoMute } from '../../core/mutes/mute-by-token.ts';
import { muteResultSchema } from '../../shared/mute.ts';
import type { AppDeps } from '../app-deps.ts';
import { createApiRouter, errorResponse, jsonContent } from '../http/api-router.ts';

/**
 * The mute links of alert emails (decision 0038), answered without signing in: the token is
 * the proof. The email's link opens the `/mute` page, which reads what the link would do (GET,
 * which changes nothing: mail scanners fetch every link), asks for one click (POST), and offers
 * an undo (DELETE).
 */
const query = z.object({
  muteToken: z.string().optional().openapi({ description: 'The token of the email’s mute link' }),
});
const answered = (description: string) => ({ description, ...jsonContent(muteResultSchema) });
const badToken = errorResponse(
  'The token is missing, not valid, or its monitor is gone; nothing changed',
);

const describe = createRoute({
  method: 'get',
  path: '/mutes',
  tags: ['mutes'],
  summary: 'What a mute link would do, and whether it is done (changes nothing)',
  request: { query },
  responses: { 200: answered('The mute'), 400: badToken },
});
const apply = createRoute({
  method: 'post',
  path: '/mutes',
  tags: ['mutes'],
  summary: 'Mute a thread, an author or a community for one monitor (no sign-in)',
  request: { query },
  responses: { 200: answered('Muted (also when it already was)'), 400: badToken },
});
const undo = createRoute({
  method: 'delete',
  path: '/mutes',
  tags: ['mutes'],
  summary: 'Undo a mute link: the exclusion leaves the monitor (no sign-in)',
  request: { query },
  responses: { 200: answered('Not muted (also when it was not)'), 400: badToken },
});

export function createMuteRoutes(deps: Pick<AppDeps, 'database' | 'config'>) {
  const db = deps.database.db;
  const loadTokens = createUnsubscribeTokenLoader(db, deps.config.UNSUBSCRIBE_SECRET);
  const app = createApiRouter();
  app.use('/mutes', async (c, next) => {
    c.header('Cache-Control', 'no-store');
    await next();
  });
  app.openapi(describe, async (c) =>
    c.json(
      await describeMute({ db, tokens: await loadTokens() }, c.req.valid('query').muteToken),
      200,
    ),
  );
  app.openapi(apply, async (c) =>
    c.json(
      await applyMute({ db, tokens: await loadTokens() }, c.req.valid('query').muteToken),
      200,
    ),
  );
  app.openapi(undo, async (c) =>
    c.json(await undoMute({ db, tokens: await loadTokens() }, c.req.valid('query').muteToken), 200),
  );
  return app;
}
