import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { MONITOR_DELIVERIES } from '../../shared/monitor.ts';
import type { SourceName } from '../../shared/sources.ts';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A user's saved query (docs/product.md, "Monitors"). `sources` lists the sites it watches; none
 * (the default) means every site, including sites added later (migration 0012). `matchCount` and `lastMatchAt` are kept by the pipeline in the transaction that
 * stores the matches, so listing monitors never counts matches.
 *
 * Every insert, update and delete is logged in `monitor_changes` by a trigger (migration 0002),
 * so every worker's in-memory index can follow the table without the API knowing the workers.
 */
export const monitors = pgTable(
  'monitors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    query: text('query').notNull(),
    sources: text('sources').array().$type<SourceName[]>().notNull().default(sql`'{}'::text[]`),
    paused: boolean('paused').notNull().default(false),
    emailMuted: boolean('email_muted').notNull().default(false),
    /** The monitor's rhythm (`MONITOR_DELIVERIES`; decision 0038). */
    delivery: text('delivery', { enum: MONITOR_DELIVERIES }).notNull().default('default'),
    /** Spike alerts (decision 0038): on, and the owner's local day the last one was sent. */
    spikeAlerts: boolean('spike_alerts').notNull().default(false),
    spikeNotifiedDay: text('spike_notified_day'),
    matchCount: integer('match_count').notNull().default(0),
    lastMatchAt: at('last_match_at'),
    // The clock hour being counted (its start), the matches stored in it and those left out
    // beyond MONITOR_MATCHES_PER_HOUR (migration 0013), kept by storeMatches.
    hourStartedAt: at('hour_started_at'),
    hourMatches: integer('hour_matches').notNull().default(0),
    hourDropped: integer('hour_dropped').notNull().default(0),
    /**
     * Matches whose relevance is under this (0 to 1) are stored and shown, but neither emailed
     * nor sent to the webhook; null (the default) holds nothing back.
     */
    relevanceThreshold: real('relevance_threshold'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [index('monitors_user_id_created_at_idx').on(table.userId, table.createdAt)],
);

export type MonitorRow = typeof monitors.$inferSelect;

/**
 * Each monitor's relevance model (src/relevance/relevance-model.ts), trained on its owner's
 * ratings: kept here so every worker scores alike and a restart keeps it. Goes with its monitor.
 */
export const relevanceModels = pgTable('relevance_models', {
  monitorId: uuid('monitor_id')
    .primaryKey()
    .references(() => monitors.id, { onDelete: 'cascade' }),
  model: jsonb('model').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
});

/**
 * An append-only log of monitor changes, written by a trigger on `monitors`: a worker reads the
 * rows after the last id it has seen and re-reads those monitors (or drops them when gone).
 * `op` is 'I', 'U' or 'D'. Old rows are pruned in the background.
 */
export const monitorChanges = pgTable('monitor_changes', {
  id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
  monitorId: uuid('monitor_id').notNull(),
  op: text('op').notNull(),
  at: at('at').notNull().defaultNow(),
});

/**
 * A conversation a monitor no longer alerts on (decision 0038's mute links, issue 25): matches
 * of the monitor in this thread (`source`, `thread_id`, as `matches.thread_id`) are not stored.
 * Listed on the monitor with an undo; `title` names it there.
 */
export const monitorThreadMutes = pgTable(
  'monitor_thread_mutes',
  {
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    source: text('source').$type<SourceName>().notNull(),
    threadId: text('thread_id').notNull(),
    title: text('title'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.monitorId, table.source, table.threadId] })],
);

export type MonitorThreadMuteRow = typeof monitorThreadMutes.$inferSelect;

/**
 * A thread a user follows from one of its matches (decision 0038): for `until` (7 days), new
 * items of the thread are matches of the monitor whether or not they hold its words.
 */
export const threadFollows = pgTable(
  'thread_follows',
  {
    monitorId: uuid('monitor_id')
      .notNull()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    source: text('source').$type<SourceName>().notNull(),
    threadId: text('thread_id').notNull(),
    until: at('until').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.monitorId, table.source, table.threadId] }),
    index('thread_follows_thread_idx').on(table.source, table.threadId),
  ],
);
