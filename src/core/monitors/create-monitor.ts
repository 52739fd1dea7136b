import { eq, sql } from 'drizzle-orm';
import { monitors } from '../../db/schema/monitors.ts';
import type { CreateMonitorBody, Monitor } from '../../shared/monitor.ts';
import { ConflictError } from '../errors.ts';
import { lockUserRecord } from '../users/lock-user-record.ts';
import { type BreadthContext, checkMonitorBreadth } from './check-monitor-breadth.ts';
import { checkMonitorQuery } from './check-monitor-query.ts';
import { storedMonitorSources } from './monitor-sources.ts';
import { toMonitor } from './to-monitor.ts';

/**
 * Saves a new monitor after checking its query: it parses, and it would not match more than
 * `MONITOR_MAX_MATCH_PERCENT` of the recent items (`checkMonitorBreadth`). The user's row is locked for the count, so two
 * creates at once cannot pass the limit together. The workers learn of it through the
 * `monitor_changes` trigger.
 */
export async function createMonitor(
  ctx: BreadthContext & { maxMonitorsPerUser: number },
  input: { userId: string; body: CreateMonitorBody },
): Promise<Monitor> {
  const ast = checkMonitorQuery(input.body.query);
  await checkMonitorBreadth(ctx, { ast, sources: input.body.sources });
  return ctx.db.transaction(async (tx) => {
    await lockUserRecord(tx, input.userId);
    const [counted] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(monitors)
      .where(eq(monitors.userId, input.userId));
    if ((counted?.n ?? 0) >= ctx.maxMonitorsPerUser) {
      throw new ConflictError(
        `You already have ${ctx.maxMonitorsPerUser} monitors, the most one account may keep. Delete one to add another.`,
        { limit: ctx.maxMonitorsPerUser },
      );
    }
    const { query, name, sources, paused, emailMuted, relevanceThreshold, delivery, spikeAlerts } =
      input.body;
    const [row] = await tx
      .insert(monitors)
      .values({
        userId: input.userId,
        query,
        ...(name !== undefined ? { name } : {}),
        ...(sources !== undefined ? { sources: storedMonitorSources(sources) } : {}),
        ...(paused !== undefined ? { paused } : {}),
        ...(emailMuted !== undefined ? { emailMuted } : {}),
        ...(relevanceThreshold !== undefined ? { relevanceThreshold } : {}),
        ...(delivery !== undefined ? { delivery } : {}),
        ...(spikeAlerts !== undefined ? { spikeAlerts } : {}),
      })
      .returning();
    if (!row) throw new Error('The insert returned no monitor.');
    return toMonitor(row);
  });
}
