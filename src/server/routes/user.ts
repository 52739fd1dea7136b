import { createRoute } from '@hono/zod-openapi';
import { deleteUserData } from '../../core/users/delete-user-data.ts';
import { ensureUser } from '../../core/users/ensure-user.ts';
import { getUser } from '../../core/users/get-user.ts';
import { syncUserEmail } from '../../core/users/sync-user-email.ts';
import { updateUser } from '../../core/users/update-user.ts';
import { createUserBodySchema, updateUserBodySchema, userRecordSchema } from '../../shared/user.ts';
import type { AppDeps } from '../app-deps.ts';
import {
  createApiRouter,
  errorResponse,
  errorResponses,
  jsonContent,
  signedInOnly,
} from '../http/api-router.ts';
import { requireLiveSession } from '../http/require-live-session.ts';

/**
 * /api/user: the signed-in user's own record. Every handler works on `auth.claims.sub` only, so
 * one user can never read or change another's record.
 */

const getRoute = createRoute({
  method: 'get',
  path: '/user',
  tags: ['user'],
  summary: 'The signed-in user’s record',
  security: signedInOnly,
  responses: {
    200: { description: 'The record', ...jsonContent(userRecordSchema) },
    ...errorResponses(401),
    404: errorResponse('No record yet: POST /api/user creates it'),
  },
});

const updateRoute = createRoute({
  method: 'put',
  path: '/user',
  tags: ['user'],
  summary: 'Change names, time zone or e-mail alert mode',
  security: signedInOnly,
  request: { body: { required: true, ...jsonContent(updateUserBodySchema) } },
  responses: {
    200: { description: 'The updated record', ...jsonContent(userRecordSchema) },
    ...errorResponses(400, 401),
    404: errorResponse('No record yet'),
  },
});

const createUserRoute = createRoute({
  method: 'post',
  path: '/user',
  tags: ['user'],
  summary: 'Create the record of the signed-in identity if it is missing (idempotent)',
  security: signedInOnly,
  request: { body: { required: true, ...jsonContent(createUserBodySchema) } },
  responses: {
    200: { description: 'The record already existed', ...jsonContent(userRecordSchema) },
    201: {
      description: 'The record was created from the identity’s attributes',
      ...jsonContent(userRecordSchema),
    },
    ...errorResponses(400, 401),
  },
});

const deleteRoute = createRoute({
  method: 'delete',
  path: '/user',
  tags: ['user'],
  summary: 'Delete the record and all of the user’s data (the identity is deleted with DeleteUser)',
  security: signedInOnly,
  responses: {
    204: { description: 'Deleted (also when there was nothing to delete)' },
    ...errorResponses(401),
  },
});

const syncEmailRoute = createRoute({
  method: 'post',
  path: '/user/email',
  tags: ['user'],
  summary: 'Take the identity’s verified e-mail address into the record (after a change)',
  security: signedInOnly,
  responses: {
    200: {
      description: 'The record, with the identity’s verified address',
      ...jsonContent(userRecordSchema),
    },
    401: errorResponse('No valid access token, or the session was signed out'),
    404: errorResponse('No record yet'),
  },
});

export function createUserRoutes(deps: Pick<AppDeps, 'database' | 'identity'>) {
  const db = deps.database.db;
  const app = createApiRouter();
  // Account-changing and destructive requests ask the provider whether the session is live.
  // (POST /api/user only makes sure the record exists, asking GetUser itself when it creates it.)
  const liveSession = requireLiveSession(deps.identity);
  app.on(['PUT', 'DELETE'], '/user', liveSession);
  app.on('POST', '/user/email', liveSession);
  app.openapi(getRoute, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await getUser({ db }, c.get('auth').claims.sub), 200);
  });
  app.openapi(updateRoute, async (c) => {
    const changes = c.req.valid('json');
    return c.json(await updateUser({ db }, { userId: c.get('auth').claims.sub, changes }), 200);
  });
  app.openapi(createUserRoute, async (c) => {
    const { claims, accessToken } = c.get('auth');
    const { user, created } = await ensureUser(
      { db, identity: deps.identity },
      { userId: claims.sub, accessToken },
    );
    return created ? c.json(user, 201) : c.json(user, 200);
  });
  app.openapi(syncEmailRoute, async (c) => {
    const { claims, accessToken } = c.get('auth');
    c.header('Cache-Control', 'no-store');
    return c.json(
      await syncUserEmail({ db, identity: deps.identity }, { userId: claims.sub, accessToken }),
      200,
    );
  });
  app.openapi(deleteRoute, async (c) => {
    await deleteUserData({ db }, c.get('auth').claims.sub);
    return c.body(null, 204);
  });
  return app;
}
