import { z } from 'zod';
import { type SourceHealth, sourceHealthSchema } from '../../shared/source-health.ts';
import { api } from './api.ts';

export type { SourceHealth };

const healthBodySchema = z.object({ sources: z.array(sourceHealthSchema) });

/**
 * Each site's health from GET /api/health (docs/product.md, "Sources"), shared by the
 * dashboard's status line and the monitor form.
 */
export const sourceHealthApi = api.injectEndpoints({
  endpoints: (build) => ({
    getSourceHealth: build.query<SourceHealth[], void>({
      // 503 (the database is down) still carries the body; no sources are shown then.
      query: () => ({ url: '/health', validateStatus: () => true }),
      transformResponse: (body: unknown) => {
        const parsed = healthBodySchema.safeParse(body);
        return parsed.success ? parsed.data.sources : [];
      },
    }),
  }),
});

export const { useGetSourceHealthQuery } = sourceHealthApi;
