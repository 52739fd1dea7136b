import { asc, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type MonitorThreadMuteRow, monitorThreadMutes } from '../../db/schema/monitors.ts';

/** The muted threads of these monitors, by monitor, oldest first. */
export async function loadMutedThreads(
  db: Database,
  monitorIds: readonly string[],
): Promise<Map<string, MonitorThreadMuteRow[]>> {
  const byMonitor = new Map<string, MonitorThreadMuteRow[]>();
  if (monitorIds.length === 0) return byMonitor;
  const rows = await db
    .select()
    .from(monitorThreadMutes)
    .where(inArray(monitorThreadMutes.monitorId, [...monitorIds]))
    .orderBy(asc(monitorThreadMutes.createdAt));
  for (const row of rows) {
    const list = byMonitor.get(row.monitorId);
    if (list) list.push(row);
    else byMonitor.set(row.monitorId, [row]);
  }
  return byMonitor;
}
