import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { monitorWebhooks } from '../../db/schema/delivery.ts';
import { monitors } from '../../db/schema/monitors.ts';
import type { Monitor } from '../../shared/monitor.ts';
import { NotFoundError } from '../errors.ts';
import { loadMutedThreads } from './muted-threads.ts';
import { toMonitor } from './to-monitor.ts';

export const monitorNotFound = () =>
  new NotFoundError('There is no such monitor. It may have been deleted.');

/** One of the user's monitors; another user's id reads as not found. */
export async function getMonitor(
  ctx: { db: Database },
  input: { userId: string; monitorId: string },
): Promise<Monitor> {
  const [row] = await ctx.db
    .select()
    .from(monitors)
    .where(and(eq(monitors.id, input.monitorId), eq(monitors.userId, input.userId)));
  if (!row) throw monitorNotFound();
  const [webhook] = await ctx.db
    .select()
    .from(monitorWebhooks)
    .where(eq(monitorWebhooks.monitorId, row.id));
  const mutes = await loadMutedThreads(ctx.db, [row.id]);
  return toMonitor(row, webhook ?? null, new Date(), mutes.get(row.id) ?? []);
}
