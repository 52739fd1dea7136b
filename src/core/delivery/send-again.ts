import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deliveryOutbox, monitorWebhooks, type OutboxChannel } from '../../db/schema/delivery.ts';
import type { Delivery } from '../../shared/deliveries.ts';
import { ConflictError, NotFoundError } from '../errors.ts';
import { toDelivery } from './to-delivery.ts';

/**
 * Sends a failed message again, through the outbox like every other: the same row (its key, so
 * it stays one message; its exact payload) is due again at once, and the sender claims it under
 * a lease as usual. Its attempts keep counting, so a message sent again that fails once more is
 * given up again rather than retried for hours. Only a failed message can be sent again, once:
 * two clicks at once re-queue it once (the update is conditional on `failed`).
 */
export async function sendAgain(
  ctx: { db: Database },
  input: { userId: string; channel: OutboxChannel; id: number; monitorId?: string },
): Promise<Delivery> {
  const owned = and(
    eq(deliveryOutbox.id, input.id),
    eq(deliveryOutbox.userId, input.userId),
    eq(deliveryOutbox.channel, input.channel),
    input.monitorId ? eq(deliveryOutbox.monitorId, input.monitorId) : undefined,
  );
  const [row] = await ctx.db.select().from(deliveryOutbox).where(owned);
  if (!row) throw new NotFoundError('There is no such delivery. It may be older than 30 days.');
  if (row.channel === 'webhook' && row.monitorId) {
    const [hook] = await ctx.db
      .select({ pausedAt: monitorWebhooks.pausedAt })
      .from(monitorWebhooks)
      .where(eq(monitorWebhooks.monitorId, row.monitorId));
    if (!hook) throw new ConflictError('This monitor has no webhook any more.');
    if (hook.pausedAt) {
      throw new ConflictError('The webhook is paused. Save it again to resume, then send again.');
    }
  }
  const [requeued] = await ctx.db
    .update(deliveryOutbox)
    .set({
      status: 'pending',
      // Due at once by any clock: the moment of its last attempt has passed for every sender.
      nextAttemptAt: row.lastAttemptAt ?? row.createdAt,
      leaseUntil: null,
      lastError: null,
    })
    .where(and(owned, eq(deliveryOutbox.status, 'failed')))
    .returning();
  if (!requeued) {
    throw new ConflictError(
      row.status === 'pending'
        ? 'It is already queued to be sent.'
        : `Only a failed delivery can be sent again; this one is ${row.status}.`,
    );
  }
  return toDelivery(requeued);
}
