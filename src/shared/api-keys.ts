import { z } from 'zod';

/**
 * API keys (docs/product.md, "API keys"): `read` reads monitors, matches and stats; `write` also
 * creates, changes and deletes monitors and marks matches. No key works on account routes.
 */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** What every key starts with, so secret scanners can recognise a leaked one. */
export const API_KEY_PREFIX = 'esk_';

/** How many keys (not revoked) one user may hold. */
export const MAX_API_KEYS_PER_USER = 20;

export const createApiKeyBodySchema = z.strictObject({
  name: z
    .string({ error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(80, 'must be at most 80 characters'),
  scope: z.enum(API_KEY_SCOPES, { error: 'must be read or write' }),
});
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

export const apiKeySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  scope: z.enum(API_KEY_SCOPES),
  /** `esk_` and the key's first 8 characters: enough to tell keys apart, useless to call with. */
  prefix: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to creating a key: the only time the key itself is shown. */
export const createdApiKeySchema = apiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
