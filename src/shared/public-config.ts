import { z } from 'zod';

/** GET /api/config: the runtime configuration the browser needs, so one build serves every environment. */
export const publicConfigSchema = z.object({
  identity: z.object({
    endpoint: z.string(),
    region: z.string(),
    userPoolId: z.string(),
    clientId: z.string(),
  }),
  analytics: z.object({ key: z.string(), host: z.string() }).nullable(),
});

export type PublicConfig = z.infer<typeof publicConfigSchema>;
