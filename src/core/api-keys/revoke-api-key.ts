import { and, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/api-keys.ts';
import { NotFoundError } from '../errors.ts';

/**
 * Revokes one of the user's keys. Every web process reads the key's row on each request, so the
 * next request with it is refused wherever it lands.
 */
export async function revokeApiKey(
  ctx: { db: Database },
  input: { userId: string; keyId: string },
): Promise<void> {
  const revoked = await ctx.db
    .update(apiKeys)
    .set({ revokedAt: new Date() })
    .where(
      and(eq(apiKeys.id, input.keyId), eq(apiKeys.userId, input.userId), isNull(apiKeys.revokedAt)),
    )
    .returning({ id: apiKeys.id });
  if (revoked.length === 0) throw new NotFoundError('There is no such API key.');
}
