import { createRoute, z } from '@hono/zod-openapi';
import { readSourceHealth } from '../../core/sources/read-source-health.ts';
import { sourceHealthSchema } from '../../shared/source-health.ts';
import type { AppDeps } from '../app-deps.ts';
import { createApiRouter, jsonContent } from '../http/api-router.ts';

const healthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    uptimeSeconds: z.number().int(),
    database: z.object({ ok: z.boolean(), kind: z.enum(['pglite', 'postgres']) }),
    /** Each source as its worker last reported it (empty while the database does not answer). */
    sources: z.array(sourceHealthSchema),
  })
  .openapi('Health');

const route = createRoute({
  method: 'get',
  path: '/health',
  tags: ['system'],
  summary: 'Liveness and dependency health; 503 when the database does not answer',
  responses: {
    200: { description: 'Healthy', ...jsonContent(healthSchema) },
    503: { description: 'A dependency is down', ...jsonContent(healthSchema) },
  },
});

export function createHealthRoutes(deps: AppDeps) {
  return createApiRouter().openapi(route, async (c) => {
    const databaseOk = await deps.database.ping();
    const sources = databaseOk
      ? await readSourceHealth(deps.database.db, deps.config).catch(() => [])
      : [];
    const body = {
      status: databaseOk ? ('ok' as const) : ('degraded' as const),
      version: deps.version,
      uptimeSeconds: Math.floor((Date.now() - deps.startedAt) / 1000),
      database: { ok: databaseOk, kind: deps.database.kind },
      sources,
    };
    c.header('Cache-Control', 'no-store');
    return databaseOk ? c.json(body, 200) : c.json(body, 503);
  });
}
