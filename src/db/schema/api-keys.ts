import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { API_KEY_SCOPES } from '../../shared/api-keys.ts';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A user's API keys (docs/decisions/0029-api-keys.md). The key itself is never stored: `hash` is
 * the hex SHA-256 of the whole key (keys carry 192 random bits, so a fast hash is enough), and
 * `prefix` (`esk_` and the first 8 characters) finds the row and is what the user sees. A revoked
 * key keeps its row with `revoked_at` set, so a request with it is told it was revoked.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scope: text('scope', { enum: API_KEY_SCOPES }).notNull(),
    prefix: text('prefix').notNull(),
    hash: text('hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (table) => [
    index('api_keys_prefix_idx').on(table.prefix),
    index('api_keys_user_id_created_at_idx').on(table.userId, table.createdAt),
    check('api_keys_scope_check', sql`${table.scope} in ('read', 'write')`),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
