import { and, lt, ne } from 'drizzle-orm';
import { deliveryOutbox } from '../db/schema/delivery.ts';
import type { DeliveryContext } from './delivery-context.ts';

/** How long finished outbox rows (sent, failed, cancelled) are kept, for support questions. */
export const OUTBOX_RETENTION_DAYS = 30;

/** Deletes finished outbox rows older than the retention; pending rows are never touched. */
export async function pruneOutbox(ctx: DeliveryContext): Promise<{ deleted: number }> {
  const before = new Date(ctx.clock.now().getTime() - OUTBOX_RETENTION_DAYS * 86_400_000);
  const deleted = await ctx.db
    .delete(deliveryOutbox)
    .where(and(ne(deliveryOutbox.status, 'pending'), lt(deliveryOutbox.createdAt, before)))
    .returning({ id: deliveryOutbox.id });
  return { deleted: deleted.length };
}
