import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import { emailDeliveryState, monitorWebhooks } from '../../db/schema/delivery.ts';
import { monitors, monitorThreadMutes } from '../../db/schema/monitors.ts';
import type { Monitor, UpdateMonitorBody } from '../../shared/monitor.ts';
import { setMonitorWebhook } from '../webhooks/set-monitor-webhook.ts';
import { type BreadthContext, checkMonitorBreadth } from './check-monitor-breadth.ts';
import { checkMonitorQuery } from './check-monitor-query.ts';
import { monitorNotFound } from './get-monitor.ts';
import { storedMonitorSources } from './monitor-sources.ts';
import { loadMutedThreads } from './muted-threads.ts';
import { toMonitor } from './to-monitor.ts';

/**
 * Changes any of a monitor's fields; a new query is checked like a new monitor's (its breadth
 * over the sites given with it, or every site). `webhook` sets,
 * replaces or (null) removes its webhook (docs/webhooks.md), checked before anything is written.
 */
export async function updateMonitor(
  ctx: BreadthContext & { config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE'> },
  input: { userId: string; monitorId: string; changes: UpdateMonitorBody },
): Promise<Monitor> {
  const { webhook, unmuteThread, ...changes } = input.changes;
  if (changes.query !== undefined) {
    const ast = checkMonitorQuery(changes.query);
    await checkMonitorBreadth(ctx, { ast, sources: changes.sources });
  }
  if (webhook !== undefined) {
    await setMonitorWebhook(ctx, { userId: input.userId, monitorId: input.monitorId, webhook });
  }
  const [row] = await ctx.db
    .update(monitors)
    .set({
      ...changes,
      ...(changes.sources !== undefined ? { sources: storedMonitorSources(changes.sources) } : {}),
      updatedAt: new Date(),
    })
    .where(and(eq(monitors.id, input.monitorId), eq(monitors.userId, input.userId)))
    .returning();
  if (!row) throw monitorNotFound();
  if (changes.delivery !== undefined) {
    // A new rhythm can make waiting matches due sooner: the email decider looks again.
    await ctx.db
      .update(emailDeliveryState)
      .set({ dueAt: null })
      .where(eq(emailDeliveryState.userId, input.userId));
  }
  if (unmuteThread) {
    await ctx.db
      .delete(monitorThreadMutes)
      .where(
        and(
          eq(monitorThreadMutes.monitorId, row.id),
          eq(monitorThreadMutes.source, unmuteThread.source),
          eq(monitorThreadMutes.threadId, unmuteThread.threadId),
        ),
      );
  }
  const [hook] = await ctx.db
    .select()
    .from(monitorWebhooks)
    .where(eq(monitorWebhooks.monitorId, row.id));
  const mutes = await loadMutedThreads(ctx.db, [row.id]);
  return toMonitor(row, hook ?? null, new Date(), mutes.get(row.id) ?? []);
}
