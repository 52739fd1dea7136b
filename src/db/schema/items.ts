import { getTableColumns, sql } from 'drizzle-orm';
import {
  bigint,
  check,
  customType,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { Intent, Sentiment } from '../../shared/signals.ts';
import type { SourceName } from '../../shared/sources.ts';
import { feeds } from './feeds.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Every post and comment the connectors brought in, normalised (docs/product.md, "Sources"),
 * stored once per `(source, external_id)` and kept ITEM_RETENTION_DAYS. The id orders items by
 * arrival: each matcher shard reads the items after the last id it matched.
 */
export const items = pgTable(
  'items',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    source: text('source').$type<SourceName>().notNull(),
    externalId: text('external_id').notNull(),
    kind: text('kind', { enum: ['post', 'comment'] }).notNull(),
    title: text('title'),
    body: text('body').notNull(),
    url: text('url'),
    permalink: text('permalink').notNull(),
    author: text('author'),
    community: text('community'),
    parentExternalId: text('parent_external_id'),
    /**
     * The feed a user added that brought the item (the `feeds` site only): it is matched only
     * against the monitors of that feed's subscribers.
     */
    feedId: bigint('feed_id', { mode: 'number' }).references(() => feeds.id, {
      onDelete: 'cascade',
    }),
    /** A comment's thread: the title of the post it belongs to, when known (`storeItems`). */
    threadTitle: text('thread_title'),
    /**
     * The thread it belongs to: the external id of its post (a post's own id); null when the
     * site did not name it and its parent is not stored (`storeItems`).
     */
    threadId: text('thread_id'),
    createdAt: at('created_at').notNull(),
    fetchedAt: at('fetched_at').notNull().defaultNow(),
    /**
     * The item's signals (src/signals; see `ItemSignals`), computed when something first reads
     * them (`withSignalsOnRead`): null `intents` means not computed yet, and then `sentiment` and
     * `language` say nothing either (docs/decisions/0043-lazy-item-signals.md). The row is not
     * written again once they are: the matches made of the item keep them.
     */
    intents: text('intents').array().$type<Intent[]>(),
    sentiment: text('sentiment').$type<Sentiment>(),
    language: text('language'),
    /** The folded title, body and URL the monitor preview searches: `searchDocument` (search-text.ts). */
    search: tsvector('search').notNull(),
  },
  (table) => [
    uniqueIndex('items_source_external_id_idx').on(table.source, table.externalId),
    index('items_feed_id_idx').on(table.feedId).where(sql`${table.feedId} is not null`),
    // Newest first, in the order the preview's windows read them (migration 0013).
    index('items_created_at_id_idx').on(table.createdAt, table.id),
    // The monitor preview's prefilter (docs/decisions/0013-…).
    index('items_search_idx').using('gin', table.search),
    check('items_kind_check', sql`${table.kind} in ('post', 'comment')`),
  ],
);

const { search: _search, ...readColumns } = getTableColumns(items);

/** The columns an item is read with: all but `search`, which only its index reads. */
export const itemColumns = readColumns;

export type ItemRow = Omit<typeof items.$inferSelect, 'search'>;

/**
 * Where each connector is: its cursor (the connector's own shape, e.g. the last Hacker News id),
 * written in the same transaction as the items it covers, so a restart neither skips nor repeats.
 */
export const sourceCursors = pgTable('source_cursors', {
  source: text('source').$type<SourceName>().primaryKey(),
  cursor: jsonb('cursor').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * Where each matcher shard is (`"<k>/<n>"`): the last item id it matched, committed with the
 * matches it made from those items.
 */
export const matchCursors = pgTable('match_cursors', {
  shard: text('shard').primaryKey(),
  lastItemId: bigint('last_item_id', { mode: 'number' }).notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
