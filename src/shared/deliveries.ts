import { z } from 'zod';

/**
 * The delivery history (docs/webhooks.md, "History"): a monitor's webhook calls and a user's
 * emails, read from the delivery outbox, one entry per message (its retries are attempts of it).
 */

/** How many entries a history shows, newest first. */
export const DELIVERY_HISTORY_SIZE = 100;

/**
 * `queued`: not tried yet; `deferred`: an attempt failed and another is planned (`nextAttemptAt`);
 * `sent`; `failed`: given up (it may be sent again); `cancelled`: not sent on purpose (the
 * webhook was removed or paused, alerts were turned off), `error` says why.
 */
export const DELIVERY_STATES = ['queued', 'deferred', 'sent', 'failed', 'cancelled'] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

export const deliverySchema = z.object({
  /** The outbox row's id, in decimal. */
  id: z.string(),
  /** `alert`: matches; `test`: a test email; `notice`: a message about the account's setup. */
  purpose: z.enum(['alert', 'test', 'notice']),
  state: z.enum(DELIVERY_STATES),
  /** When it was queued (ISO 8601). */
  createdAt: z.string(),
  /** When its last attempt ended; null before the first. */
  lastAttemptAt: z.string().nullable(),
  /** When the next attempt is due, while `queued` or `deferred`. */
  nextAttemptAt: z.string().nullable(),
  attempts: z.number().int(),
  /** The last answer's status code (HTTP for webhooks, SMTP for email); null without one. */
  responseStatus: z.number().int().nullable(),
  /** How long the last attempt took, in milliseconds. */
  durationMs: z.number().int().nullable(),
  /** Why the last attempt failed or why it was cancelled; null when sent. */
  error: z.string().nullable(),
  /** How many matches it carries. */
  matchCount: z.number().int(),
  /** An email's subject; null for webhook calls. */
  subject: z.string().nullable(),
});
export type Delivery = z.infer<typeof deliverySchema>;

export const DELIVERY_ID_PATTERN = /^[1-9][0-9]{0,15}$/;
export const deliveryIdSchema = z.string().regex(DELIVERY_ID_PATTERN, 'must be a delivery id');
