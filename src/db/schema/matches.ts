import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { HitField } from '../../shared/match.ts';
import type { Intent, Sentiment } from '../../shared/signals.ts';
import type { SourceName } from '../../shared/sources.ts';
import { monitors } from './monitors.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * One item found by one monitor (docs/product.md, "Matches and alerts"), stored once per
 * `(monitor, source, external id)`. It carries everything the feed and the emails show, so it
 * outlives the item (items are pruned after ITEM_RETENTION_DAYS) and names it by `(source,
 * external id)` only: a key to the item would cost every insert a check and every prune an update.
 * `user_id` is the monitor's owner, kept here so every feed query is scoped by one indexed column;
 * it needs no key of its own, as the monitor's cascades from the user's.
 * `highlights` are `[start, end)` offsets into `snippet`.
 */
export const matches = pgTable(
  'matches',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: uuid('user_id').notNull(),
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    source: text('source').$type<SourceName>().notNull(),
    externalId: text('external_id').notNull(),
    kind: text('kind', { enum: ['post', 'comment'] }).notNull(),
    title: text('title'),
    /** A comment's thread title (the post it belongs to); null for posts and when unknown. */
    threadTitle: text('thread_title'),
    /** The item's thread: the external id of its post (a post's own); null when unknown. */
    threadId: text('thread_id'),
    snippet: text('snippet').notNull(),
    highlights: jsonb('highlights').$type<[number, number][]>().notNull(),
    /** `[start, end)` offsets of the hits in `title`. */
    titleHighlights: jsonb('title_highlights').$type<[number, number][]>().notNull().default([]),
    /** Where the monitor's terms hit the item: some of 'title', 'body', 'url', in that order. */
    hitFields: jsonb('hit_fields').$type<HitField[]>().notNull().default([]),
    url: text('url'),
    permalink: text('permalink').notNull(),
    author: text('author'),
    community: text('community'),
    /** The item's signals, copied from it (src/shared/signals.ts). */
    intents: text('intents').array().$type<Intent[]>().notNull().default(sql`'{}'::text[]`),
    sentiment: text('sentiment').$type<Sentiment>(),
    language: text('language'),
    /** The user corrected the signals above (`PUT /api/matches/:id/signals`). */
    signalsCorrected: boolean('signals_corrected').notNull().default(false),
    itemCreatedAt: at('item_created_at').notNull(),
    matchedAt: at('matched_at').notNull().defaultNow(),
    readAt: at('read_at'),
    /**
     * What `q` of GET /api/matches searches: the folded title, snippet and names, written with
     * the row by `searchDocument` (search-text.ts).
     */
    search: tsvector('search').notNull(),
    /**
     * The match as GET /api/matches sends it, less its id and its read flag (a JSON object in
     * the key order of `toMatch`), written by the trigger `matches_feed_json` on insert,
     * whatever the insert gives: the feed joins these texts instead of building each match
     * again on every read. Nothing in it changes after the insert.
     */
    feedJson: text('feed_json').notNull().default(''),
    // Not yet decided on by delivery (docs/decisions/0015-delivery-outbox.md): the decider
    // clears these in the transaction that queues the email or webhook call covering the match.
    emailPending: boolean('email_pending').notNull().default(true),
    webhookPending: boolean('webhook_pending').notNull().default(true),
    /** The user's judgement of the match (docs/product.md, "Relevance"); null until rated. */
    rating: text('rating', { enum: ['relevant', 'irrelevant'] }),
    /**
     * How likely the match is what the monitor's owner means, 0 to 1, written when it is stored
     * and again when a rating of the monitor changes the model (src/relevance); null for matches
     * stored before migration 0024.
     */
    relevance: real('relevance'),
    /** Up to three reasons for `relevance`, in words. */
    relevanceReasons: jsonb('relevance_reasons').$type<string[]>().notNull().default([]),
  },
  (table) => [
    uniqueIndex('matches_monitor_item_idx').on(table.monitorId, table.source, table.externalId),
    index('matches_user_id_id_idx').on(table.userId, table.id.desc()),
    index('matches_monitor_id_id_idx').on(table.monitorId, table.id.desc()),
    index('matches_user_unread_idx')
      .on(table.userId, table.id.desc())
      .where(sql`${table.readAt} is null`),
    index('matches_search_idx').using('gin', table.search),
    // Stats per day and the live feed's catch-up read matches by time, index-only.
    index('matches_user_matched_at_idx').on(table.userId, table.matchedAt, table.monitorId),
    index('matches_email_pending_idx').on(table.userId, table.id).where(sql`${table.emailPending}`),
    index('matches_webhook_pending_idx')
      .on(table.monitorId, table.id)
      .where(sql`${table.webhookPending}`),
  ],
);

export type MatchRow = typeof matches.$inferSelect;
