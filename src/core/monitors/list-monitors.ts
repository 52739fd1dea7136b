import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { monitors } from '../../db/schema/monitors.ts';
import type { Monitor } from '../../shared/monitor.ts';
import { toMonitor } from './to-monitor.ts';

/** The user's monitors, oldest first (the order they were written in). */
export async function listMonitors(ctx: { db: Database }, userId: string): Promise<Monitor[]> {
  const rows = await ctx.db
    .select()
    .from(monitors)
    .where(eq(monitors.userId, userId))
    .orderBy(asc(monitors.createdAt), asc(monitors.id));
  return rows.map(toMonitor);
}
