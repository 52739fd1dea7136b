import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { SourceHealth } from '../../shared/source-health.ts';
import type { SourceName } from '../../shared/sources.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * How each source is doing, written by the worker that leads it (a few times a minute at most)
 * and read by `GET /api/health` in any process, so a web process reports a worker's sources.
 * `state` is 'ok', 'lagging', 'failing' or 'not_configured'; `skipped` counts dropped records
 * by reason since the leader started.
 */
export const sourceHealth = pgTable('source_health', {
  source: text('source').$type<SourceName>().primaryKey(),
  state: text('state').notNull(),
  lastSuccessAt: at('last_success_at'),
  lastErrorAt: at('last_error_at'),
  lastError: text('last_error'),
  itemsPerMinute: integer('items_per_minute').notNull().default(0),
  behindSeconds: integer('behind_seconds'),
  skipped: jsonb('skipped').$type<Record<string, number>>().notNull().default({}),
  /** What the source says of itself: a quota running short (one line), or null. */
  note: text('note'),
  /** A pushing source's queue (Bluesky): depth, most ever, lag; null for the others. */
  queue: jsonb('queue').$type<NonNullable<SourceHealth['queue']>>(),
  /** Which worker process leads the source (host and pid), for operators. */
  leader: text('leader'),
  updatedAt: at('updated_at').notNull().defaultNow(),
});
