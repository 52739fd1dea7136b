import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { deliveryOutbox, type OutboxChannel } from '../../db/schema/delivery.ts';
import { DELIVERY_HISTORY_SIZE, type Delivery } from '../../shared/deliveries.ts';
import { getMonitor } from '../monitors/get-monitor.ts';
import { toDelivery } from './to-delivery.ts';

/**
 * A history read from the outbox itself, newest first: what was queued, each message's last
 * attempt and where it stands. The outbox keeps finished rows for OUTBOX_RETENTION_DAYS.
 */
async function listOutbox(
  ctx: { db: Database },
  where: { userId: string; channel: OutboxChannel; monitorId?: string },
): Promise<Delivery[]> {
  const rows = await ctx.db
    .select()
    .from(deliveryOutbox)
    .where(
      and(
        eq(deliveryOutbox.userId, where.userId),
        eq(deliveryOutbox.channel, where.channel),
        where.monitorId ? eq(deliveryOutbox.monitorId, where.monitorId) : undefined,
      ),
    )
    .orderBy(desc(deliveryOutbox.id))
    .limit(DELIVERY_HISTORY_SIZE);
  return rows.map(toDelivery);
}

/** The last webhook calls of one of the user's monitors; another user's monitor is not found. */
export async function listWebhookCalls(
  ctx: { db: Database },
  input: { userId: string; monitorId: string },
): Promise<Delivery[]> {
  await getMonitor(ctx, input);
  return listOutbox(ctx, { ...input, channel: 'webhook' });
}

/** The last emails to the user: alerts, tests and notices. */
export async function listEmails(ctx: { db: Database }, userId: string): Promise<Delivery[]> {
  return listOutbox(ctx, { userId, channel: 'email' });
}
