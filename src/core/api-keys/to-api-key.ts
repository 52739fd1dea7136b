import type { ApiKeyRow } from '../../db/schema/api-keys.ts';
import type { ApiKey } from '../../shared/api-keys.ts';

/** The wire shape of an `api_keys` row: never its hash. */
export function toApiKey(row: ApiKeyRow): ApiKey {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}
