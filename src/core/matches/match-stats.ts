import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { users } from '../../db/schema/users.ts';
import type { MatchStats } from '../../shared/match.ts';

/**
 * Matches per day and monitor over the last `days` days, the days counted in the user's time
 * zone (today included). Read index-only from (user_id, matched_at, monitor_id).
 */
export async function matchStats(
  ctx: { db: Database },
  input: { userId: string; days: number },
): Promise<MatchStats> {
  const [user] = await ctx.db
    .select({ timezone: users.timezone })
    .from(users)
    .where(eq(users.id, input.userId));
  const timezone = user?.timezone ?? 'UTC';
  // Midnight that starts the first day, in the user's zone, as an instant.
  const since = sql`((now() at time zone ${timezone})::date - ${input.days - 1}::int)::timestamp at time zone ${timezone}`;
  const day = sql<string>`to_char(${matches.matchedAt} at time zone ${timezone}, 'YYYY-MM-DD')`;
  const rows = await ctx.db
    .select({ date: day, monitorId: matches.monitorId, count: sql<number>`count(*)::int` })
    .from(matches)
    .where(sql`${matches.userId} = ${input.userId} and ${matches.matchedAt} >= ${since}`)
    .groupBy(sql`1`, matches.monitorId)
    .orderBy(sql`1`, matches.monitorId);
  return { timezone, days: rows };
}
