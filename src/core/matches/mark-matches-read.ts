import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';

/** Marks every unread match of the user read, or those of one of their monitors. */
export async function markMatchesRead(
  ctx: { db: Database },
  input: { userId: string; monitorId?: string | undefined },
): Promise<{ updated: number }> {
  const conditions: SQL[] = [eq(matches.userId, input.userId), isNull(matches.readAt)];
  if (input.monitorId) conditions.push(eq(matches.monitorId, input.monitorId));
  const updated = await ctx.db
    .update(matches)
    .set({ readAt: new Date() })
    .where(and(...conditions))
    .returning({ id: matches.id });
  return { updated: updated.length };
}
