import { createRoute, z } from '@hono/zod-openapi';
import { createApiKey } from '../../core/api-keys/create-api-key.ts';
import { listApiKeys } from '../../core/api-keys/list-api-keys.ts';
import { revokeApiKey } from '../../core/api-keys/revoke-api-key.ts';
import {
  apiKeySchema,
  createApiKeyBodySchema,
  createdApiKeySchema,
  MAX_API_KEYS_PER_USER,
} from '../../shared/api-keys.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedInOnly,
} from '../http/api-router.ts';

/**
 * /api/api-keys: the signed-in user's API keys. An account route: only an access token opens it,
 * never a key (requireAuth answers 403), so a leaked key cannot mint more.
 */

const idParams = z.object({
  id: z.uuid('must be an API key id').openapi({ param: { name: 'id', in: 'path' } }),
});

const listRoute = createRoute({
  method: 'get',
  path: '/api-keys',
  tags: ['api keys'],
  summary: 'The signed-in user’s API keys (not revoked), newest first; never the keys themselves',
  security: signedInOnly,
  responses: {
    200: { description: 'The keys', ...jsonContent(z.array(apiKeySchema)) },
    ...errorResponses(401, 403),
  },
});

const createKeyRoute = createRoute({
  method: 'post',
  path: '/api-keys',
  tags: ['api keys'],
  summary: 'Make a key; the answer is the only time the key itself is shown',
  security: signedInOnly,
  request: { body: { required: true, ...jsonContent(createApiKeyBodySchema) } },
  responses: {
    201: { description: 'The key, with `key`', ...jsonContent(createdApiKeySchema) },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No user record yet: POST /api/user creates it'),
    409: errorResponse(`The user already has ${MAX_API_KEYS_PER_USER} keys (\`details.limit\`)`),
  },
});

const revokeRoute = createRoute({
  method: 'delete',
  path: '/api-keys/{id}',
  tags: ['api keys'],
  summary: 'Revoke a key: every request with it is refused from now on',
  security: signedInOnly,
  request: { params: idParams },
  responses: {
    204: { description: 'Revoked' },
    ...errorResponses(400, 401, 403),
    404: errorResponse('No such key, or not the signed-in user’s, or already revoked'),
  },
});

export function createApiKeyRoutes(deps: Pick<AppDeps, 'database'>) {
  const db = deps.database.db;
  const app = createApiRouter();
  app.openapi(listRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await listApiKeys({ db }, c.get('auth').claims.sub), 200);
  });
  app.openapi(createKeyRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    const input = { userId: c.get('auth').claims.sub, body: c.req.valid('json') };
    return c.json(await createApiKey({ db }, input), 201);
  });
  app.openapi(revokeRoute, async (c) => {
    await revokeApiKey(
      { db },
      { userId: c.get('auth').claims.sub, keyId: c.req.valid('param').id },
    );
    return c.body(null, 204);
  });
  return app;
}
