import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { apiKeys } from '../../db/schema/api-keys.ts';
import type { ApiKeyScope } from '../../shared/api-keys.ts';
import { apiKeyPrefix, hashApiKey, isWellFormedApiKey, sameHash } from './api-key-secret.ts';

/** "Last used" is written at most this often per key, so busy keys do not write on every call. */
const LAST_USED_EVERY_MS = 60_000;

export type ApiKeyIdentity = { keyId: string; userId: string; scope: ApiKeyScope };
export type ApiKeyCheck =
  | { ok: true; key: ApiKeyIdentity }
  | { ok: false; reason: 'malformed' | 'unknown' | 'revoked' };

/**
 * Who an API key belongs to, read from the database on every request: a revoked key is refused
 * by every web process at once, with no cache to wait out. The row is found by the key's prefix
 * and its hash compared in constant time.
 */
export async function authenticateApiKey(
  ctx: { db: Database; now?: () => Date },
  key: string,
): Promise<ApiKeyCheck> {
  if (!isWellFormedApiKey(key)) return { ok: false, reason: 'malformed' };
  const hash = hashApiKey(key);
  const rows = await ctx.db
    .select()
    .from(apiKeys)
    .where(eq(apiKeys.prefix, apiKeyPrefix(key)));
  const row = rows.find((candidate) => sameHash(candidate.hash, hash));
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revokedAt) return { ok: false, reason: 'revoked' };
  const now = ctx.now?.() ?? new Date();
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    // Conditional, so two processes within the minute write it once.
    await ctx.db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, row.id),
          or(
            isNull(apiKeys.lastUsedAt),
            lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_EVERY_MS)),
          ),
        ),
      );
  }
  return { ok: true, key: { keyId: row.id, userId: row.userId, scope: row.scope } };
}
