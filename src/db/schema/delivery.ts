import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { monitors } from './monitors.ts';
import { users } from './users.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const WEBHOOK_KINDS = ['slack', 'discord', 'json'] as const;
export type WebhookKind = (typeof WEBHOOK_KINDS)[number];

/**
 * Secrets the server makes for itself on first start and keeps here, so every process (web and
 * workers) signs and checks with the same key: `unsubscribe` signs unsubscribe tokens.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
});

/**
 * Where a user's email batch stands (docs/decisions/0015-delivery-outbox.md): `pendingSince` is
 * when the decider first saw matches waiting (the batch or digest is due from there); `dueAt` is
 * when it falls due for the mode and time zone in `dueFor` (`instant|UTC`), so a pass skips users
 * not yet due without opening a transaction for each; `capDay`/`capCount` count the matches
 * emailed on the user's local day, for the daily cap; `heldCount` how many matches the cap held
 * back (still flagged) for the next email, which says so.
 */
export const emailDeliveryState = pgTable('email_delivery_state', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  pendingSince: at('pending_since'),
  dueAt: at('due_at'),
  dueFor: text('due_for'),
  capDay: text('cap_day'),
  capCount: integer('cap_count').notNull().default(0),
  heldCount: integer('held_count').notNull().default(0),
  /**
   * When each rhythm's batch opened (`instant`, `hourly`, `daily`, `weekly`: ISO 8601), for
   * monitors whose rhythm differs from the user's (decision 0038); `pendingSince` is the user's.
   */
  batches: jsonb('batches').$type<Record<string, string>>().notNull().default({}),
});

/**
 * A monitor's one webhook (docs/decisions/0016-webhooks.md). `secret` signs `json` bodies and is
 * shown to the owner; `failureCount` counts failed attempts in a row and pauses the webhook at
 * the limit (`pausedAt`, `pausedReason`, shown on the Monitors page). Batching, the daily cap
 * and what it holds over (`heldCount`) work as for email, per webhook.
 */
export const monitorWebhooks = pgTable(
  'monitor_webhooks',
  {
    monitorId: uuid('monitor_id')
      .primaryKey()
      .references(() => monitors.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: WEBHOOK_KINDS }).notNull(),
    url: text('url').notNull(),
    secret: text('secret').notNull(),
    failureCount: integer('failure_count').notNull().default(0),
    pausedAt: at('paused_at'),
    pausedReason: text('paused_reason'),
    pendingSince: at('pending_since'),
    capDay: text('cap_day'),
    capCount: integer('cap_count').notNull().default(0),
    heldCount: integer('held_count').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (table) => [
    check('monitor_webhooks_kind_check', sql`${table.kind} in ('slack', 'discord', 'json')`),
    index('monitor_webhooks_user_id_idx').on(table.userId),
  ],
);

export const OUTBOX_CHANNELS = ['email', 'webhook'] as const;
export type OutboxChannel = (typeof OUTBOX_CHANNELS)[number];
export const OUTBOX_PURPOSES = ['alert', 'test', 'notice'] as const;
export type OutboxPurpose = (typeof OUTBOX_PURPOSES)[number];
export const OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'cancelled'] as const;
export type OutboxStatus = (typeof OUTBOX_STATUSES)[number];

/**
 * One message to send (an email or a webhook call), written in the transaction that decides to
 * send it, under a unique `dedupeKey` (channel + recipient + the matches it covers), so deciding
 * twice queues it once. The sender claims due rows with a lease (`leaseUntil`), sends, and marks
 * them sent; a crash between the other side's acceptance and that mark is the only way a message
 * goes out twice (docs/decisions/0015-delivery-outbox.md).
 */
export const deliveryOutbox = pgTable(
  'delivery_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    channel: text('channel', { enum: OUTBOX_CHANNELS }).notNull(),
    purpose: text('purpose', { enum: OUTBOX_PURPOSES }).notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    monitorId: uuid('monitor_id').references(() => monitors.id, { onDelete: 'cascade' }),
    dedupeKey: text('dedupe_key').notNull().unique(),
    matchIds: bigint('match_ids', { mode: 'number' }).array().notNull().default(sql`'{}'`),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: OUTBOX_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    leaseUntil: at('lease_until'),
    lastError: text('last_error'),
    // The last attempt, for the webhook and email history (migration 0020): when it ended, the
    // other side's status code (HTTP for webhooks, SMTP for email; null without an answer), and
    // how long it took.
    lastAttemptAt: at('last_attempt_at'),
    lastResponseStatus: integer('last_response_status'),
    lastDurationMs: integer('last_duration_ms'),
    createdAt: at('created_at').notNull(),
    sentAt: at('sent_at'),
  },
  (table) => [
    check(
      'delivery_outbox_status_check',
      sql`${table.status} in ('pending', 'sent', 'failed', 'cancelled')`,
    ),
    index('delivery_outbox_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    index('delivery_outbox_user_id_idx').on(table.userId),
    // The history pages: a monitor's webhook calls and a user's emails, newest first.
    index('delivery_outbox_monitor_id_channel_id_idx').on(
      table.monitorId,
      table.channel,
      table.id.desc(),
    ),
    index('delivery_outbox_user_id_channel_id_idx').on(
      table.userId,
      table.channel,
      table.id.desc(),
    ),
  ],
);

export type OutboxRow = typeof deliveryOutbox.$inferSelect;
export type MonitorWebhookRow = typeof monitorWebhooks.$inferSelect;
