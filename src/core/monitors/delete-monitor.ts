import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { monitorNotFound } from './get-monitor.ts';

/** Deletes a monitor and, by the foreign key's cascade, its matches. */
export async function deleteMonitor(
  ctx: { db: Database },
  input: { userId: string; monitorId: string },
): Promise<void> {
  const deleted = await ctx.db
    .delete(monitors)
    .where(and(eq(monitors.id, input.monitorId), eq(monitors.userId, input.userId)))
    .returning({ id: monitors.id });
  if (deleted.length === 0) throw monitorNotFound();
}
