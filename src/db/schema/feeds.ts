import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const FEED_KINDS = ['rss', 'atom', 'json', 'discourse'] as const;
export type FeedKindColumn = (typeof FEED_KINDS)[number];

/**
 * A feed or Discourse forum that users added by URL (docs/product.md, "Feeds by URL"), fetched
 * once however many users added it: `url` is what is fetched (the feed's own address, or the
 * forum's root), unique. The poller claims due rows (`nextFetchAt`) under a lease, keeps the
 * validators of the last answer for a conditional GET, and adapts `intervalSeconds` to how often
 * the feed changes. The health a user sees is `lastSuccessAt`, `itemsSeen` and `lastError`.
 */
export const feeds = pgTable(
  'feeds',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    url: text('url').notNull(),
    kind: text('kind', { enum: FEED_KINDS }).notNull(),
    /** The document's own title (a Discourse forum's from /about.json). */
    title: text('title'),
    etag: text('etag'),
    lastModified: text('last_modified'),
    intervalSeconds: integer('interval_seconds').notNull().default(300),
    nextFetchAt: at('next_fetch_at').notNull().defaultNow(),
    leaseUntil: at('lease_until'),
    lastFetchAt: at('last_fetch_at'),
    lastSuccessAt: at('last_success_at'),
    lastChangeAt: at('last_change_at'),
    lastError: text('last_error'),
    lastErrorAt: at('last_error_at'),
    itemsSeen: integer('items_seen').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('feeds_url_idx').on(table.url),
    index('feeds_next_fetch_at_idx').on(table.nextFetchAt),
    check('feeds_kind_check', sql`${table.kind} in ('rss', 'atom', 'json', 'discourse')`),
  ],
);

/**
 * A user's feed: the feed they added, under the name they see (`feed:"<name>"` in a query), and
 * whether they paused it. Its items are matched only against the monitors of the users with an
 * unpaused subscription, so a private feed URL never reaches anyone else.
 */
export const feedSubscriptions = pgTable(
  'feed_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    feedId: bigint('feed_id', { mode: 'number' })
      .notNull()
      .references(() => feeds.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    pausedAt: at('paused_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('feed_subscriptions_user_feed_idx').on(table.userId, table.feedId),
    index('feed_subscriptions_feed_id_idx').on(table.feedId),
  ],
);

export type FeedRow = typeof feeds.$inferSelect;
export type FeedSubscriptionRow = typeof feedSubscriptions.$inferSelect;
