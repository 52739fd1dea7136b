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
  // Count by (date, monitor) first, format the few groups after: one cast a row, no to_char.
  const rows = await ctx.db.execute(sql`
    select to_char(d, 'YYYY-MM-DD') as date, monitor_id as "monitorId", n as count
    from (
      select (${matches.matchedAt} at time zone ${timezone})::date as d, ${matches.monitorId}, count(*)::int as n
      from ${matches}
      where ${matches.userId} = ${input.userId} and ${matches.matchedAt} >= ${since}
      group by 1, 2
    ) as per_day
    order by 1, 2`);
  const days = (rows as unknown as { rows: { date: string; monitorId: string; count: number }[] })
    .rows;
  return { timezone, days: days.map((row) => ({ ...row, count: Number(row.count) })) };
}
