import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/api-keys.ts';
import {
  type CreateApiKeyBody,
  type CreatedApiKey,
  MAX_API_KEYS_PER_USER,
} from '../../shared/api-keys.ts';
import { ConflictError } from '../errors.ts';
import { lockUserRecord } from '../users/lock-user-record.ts';
import { generateApiKey } from './api-key-secret.ts';
import { toApiKey } from './to-api-key.ts';

/**
 * Makes a key and answers it once: only its hash is stored. The user's row is locked for the
 * count, so two creates at once cannot pass the limit together.
 */
export async function createApiKey(
  ctx: { db: Database },
  input: { userId: string; body: CreateApiKeyBody },
): Promise<CreatedApiKey> {
  return ctx.db.transaction(async (tx) => {
    await lockUserRecord(tx, input.userId);
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, input.userId), isNull(apiKeys.revokedAt)));
    if ((counted?.n ?? 0) >= MAX_API_KEYS_PER_USER) {
      throw new ConflictError(
        `You already have ${MAX_API_KEYS_PER_USER} API keys, the most one account may keep. Revoke one to add another.`,
        { limit: MAX_API_KEYS_PER_USER },
      );
    }
    const { key, prefix, hash } = generateApiKey();
    const [row] = await tx
      .insert(apiKeys)
      .values({
        userId: input.userId,
        name: input.body.name,
        scope: input.body.scope,
        prefix,
        hash,
      })
      .returning();
    if (!row) throw new Error('The insert returned no API key.');
    return { ...toApiKey(row), key };
  });
}
