import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { monitors } from '../../db/schema/monitors.ts';
import type { Monitor, UpdateMonitorBody } from '../../shared/monitor.ts';
import { checkMonitorQuery } from './check-monitor-query.ts';
import { monitorNotFound } from './get-monitor.ts';
import { toMonitor } from './to-monitor.ts';

/** Changes any of a monitor's fields; a new query is checked like a new monitor's. */
export async function updateMonitor(
  ctx: { db: Database },
  input: { userId: string; monitorId: string; changes: UpdateMonitorBody },
): Promise<Monitor> {
  if (input.changes.query !== undefined) checkMonitorQuery(input.changes.query);
  const [row] = await ctx.db
    .update(monitors)
    .set({ ...input.changes, updatedAt: new Date() })
    .where(and(eq(monitors.id, input.monitorId), eq(monitors.userId, input.userId)))
    .returning();
  if (!row) throw monitorNotFound();
  return toMonitor(row);
}
