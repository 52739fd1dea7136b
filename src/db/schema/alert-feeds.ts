import { index, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { monitors } from './monitors.ts';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A user's alert feeds (docs/decisions/0039-alert-feeds.md): one for a monitor, or with no
 * `monitor_id` one for all of the user's matches. The feed's URL carries a random token; only its
 * SHA-256 (`token_hash`) is stored, so a link is shown once, when it is made or reset. Resetting
 * writes a new hash on the same row: the old link stops working at once.
 */
export const alertFeeds = pgTable(
  'alert_feeds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    monitorId: uuid('monitor_id').references(() => monitors.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    // One feed per monitor, and one (monitor_id null) for all of a user's matches.
    unique('alert_feeds_user_id_monitor_id_key')
      .on(table.userId, table.monitorId)
      .nullsNotDistinct(),
    index('alert_feeds_monitor_id_idx').on(table.monitorId),
  ],
);

export type AlertFeedRow = typeof alertFeeds.$inferSelect;
