import { createHash } from 'node:crypto';
import { and, asc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { deliveryOutbox, type OutboxChannel, type OutboxRow } from '../db/schema/delivery.ts';
import { describeError } from '../platform/describe-error.ts';
import type { DeliveryContext } from './delivery-context.ts';

/** How one attempt went. `permanent` failures are not retried (a 5xx from SMTP, a gone webhook). */
export type SendOutcome = (
  | { status: 'sent' }
  | { status: 'failed'; error: string; permanent: boolean }
  | { status: 'cancelled'; reason: string }
) & {
  /** The other side's status code, when it answered (HTTP for webhooks, SMTP for email). */
  responseStatus?: number;
};

/** One way to send per channel (email, webhook). */
export type ChannelSender = (row: OutboxRow, ctx: DeliveryContext) => Promise<SendOutcome>;
export type ChannelSenders = Record<OutboxChannel, ChannelSender>;

const MAX_BACKOFF_SECONDS = 3600;

/**
 * The sender (docs/decisions/0015-delivery-outbox.md): claims due rows with a lease in a short
 * transaction (`FOR UPDATE SKIP LOCKED`, so several processes share the work), sends each outside
 * any transaction, then records the outcome. A failed attempt waits `base × 2^(attempt-1)` (at most
 * an hour, plus up to 10% jitter) and is given up after DELIVERY_MAX_ATTEMPTS. A process that dies
 * mid-send leaves its rows leased; they are sent again once the lease ends. That is the one window
 * in which a message can go out twice: accepted by the other side, not yet marked sent.
 */
export async function drainOutbox(
  ctx: DeliveryContext,
  senders: ChannelSenders,
  options: { limit?: number } = {},
): Promise<{ sent: number; failed: number; retrying: number; cancelled: number }> {
  const now = ctx.clock.now();
  const leaseUntil = new Date(now.getTime() + ctx.config.DELIVERY_LEASE_SECONDS * 1000);
  const claimed = await ctx.db.transaction(async (tx) => {
    const due = await tx
      .select({ id: deliveryOutbox.id })
      .from(deliveryOutbox)
      .where(
        and(
          eq(deliveryOutbox.status, 'pending'),
          lte(deliveryOutbox.nextAttemptAt, now),
          or(isNull(deliveryOutbox.leaseUntil), lte(deliveryOutbox.leaseUntil, now)),
        ),
      )
      .orderBy(asc(deliveryOutbox.id))
      .limit(options.limit ?? 20)
      .for('update', { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(deliveryOutbox)
      .set({ leaseUntil, attempts: sql`${deliveryOutbox.attempts} + 1` })
      .where(sql`${deliveryOutbox.id} = any(${sql.param(due.map((row) => row.id))}::bigint[])`)
      .returning();
  });

  const tally = { sent: 0, failed: 0, retrying: 0, cancelled: 0 };
  for (const row of claimed.sort((a, b) => a.id - b.id)) {
    let outcome: SendOutcome;
    const started = performance.now();
    try {
      outcome = await senders[row.channel](row, ctx);
    } catch (error) {
      outcome = { status: 'failed', error: describeError(error), permanent: false };
    }
    const finished = ctx.clock.now();
    // The attempt as the history shows it (docs/webhooks.md, "History"): a cancelled row was
    // never tried, so it keeps the last attempt it had.
    const attempt =
      outcome.status === 'cancelled'
        ? {}
        : {
            lastAttemptAt: finished,
            lastResponseStatus: outcome.responseStatus ?? null,
            lastDurationMs: Math.round(performance.now() - started),
          };
    if (outcome.status === 'sent') {
      tally.sent++;
      await ctx.db
        .update(deliveryOutbox)
        .set({ status: 'sent', sentAt: finished, leaseUntil: null, lastError: null, ...attempt })
        .where(eq(deliveryOutbox.id, row.id));
    } else if (outcome.status === 'cancelled') {
      tally.cancelled++;
      await ctx.db
        .update(deliveryOutbox)
        .set({ status: 'cancelled', leaseUntil: null, lastError: outcome.reason })
        .where(eq(deliveryOutbox.id, row.id));
    } else if (outcome.permanent || row.attempts >= ctx.config.DELIVERY_MAX_ATTEMPTS) {
      tally.failed++;
      ctx.logger.warn(
        { outbox: row.id, channel: row.channel, attempts: row.attempts, error: outcome.error },
        'delivery given up',
      );
      await ctx.db
        .update(deliveryOutbox)
        .set({
          status: 'failed',
          leaseUntil: null,
          lastError: outcome.error.slice(0, 500),
          ...attempt,
        })
        .where(eq(deliveryOutbox.id, row.id));
    } else {
      tally.retrying++;
      const wait = retryDelaySeconds(row.attempts, ctx.config.DELIVERY_RETRY_BASE_SECONDS, row.id);
      ctx.logger.info(
        {
          outbox: row.id,
          channel: row.channel,
          attempts: row.attempts,
          wait,
          error: outcome.error,
        },
        'delivery failed; will retry',
      );
      await ctx.db
        .update(deliveryOutbox)
        .set({
          leaseUntil: null,
          lastError: outcome.error.slice(0, 500),
          nextAttemptAt: new Date(finished.getTime() + wait * 1000),
          ...attempt,
        })
        .where(eq(deliveryOutbox.id, row.id));
    }
  }
  return tally;
}

/** Exponential backoff with a little jitter, derived from the row so retries spread out. */
export function retryDelaySeconds(attempt: number, base: number, seed: number): number {
  const plain = Math.min(MAX_BACKOFF_SECONDS, base * 2 ** Math.max(0, attempt - 1));
  const jitter = (createHash('sha256').update(`${seed}:${attempt}`).digest()[0] ?? 0) / 2550;
  return Math.round(plain * (1 + jitter));
}
