import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { monitorWebhooks } from '../../db/schema/delivery.ts';
import { monitors } from '../../db/schema/monitors.ts';
import type { Monitor } from '../../shared/monitor.ts';
import { loadMutedThreads } from './muted-threads.ts';
import { toMonitor } from './to-monitor.ts';

/** The user's monitors, oldest first (the order they were written in). */
export async function listMonitors(ctx: { db: Database }, userId: string): Promise<Monitor[]> {
  const rows = await ctx.db
    .select()
    .from(monitors)
    .where(eq(monitors.userId, userId))
    .orderBy(asc(monitors.createdAt), asc(monitors.id));
  const webhooks = await ctx.db
    .select()
    .from(monitorWebhooks)
    .where(eq(monitorWebhooks.userId, userId));
  const byMonitor = new Map(webhooks.map((hook) => [hook.monitorId, hook]));
  const mutes = await loadMutedThreads(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map((row) =>
    toMonitor(row, byMonitor.get(row.id) ?? null, new Date(), mutes.get(row.id) ?? []),
  );
}
