import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/api-keys.ts';
import type { ApiKey } from '../../shared/api-keys.ts';
import { toApiKey } from './to-api-key.ts';

/** The user's keys that are not revoked, newest first. */
export async function listApiKeys(ctx: { db: Database }, userId: string): Promise<ApiKey[]> {
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map(toApiKey);
}
