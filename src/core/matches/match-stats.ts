import { eq, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../../db/client.ts';
import { postgresTimeZone } from '../../db/postgres-time-zone.ts';
import { matches } from '../../db/schema/matches.ts';
import { users } from '../../db/schema/users.ts';
import type { MatchStats } from '../../shared/match.ts';
import type { Sentiment } from '../../shared/signals.ts';

/**
 * Matches per day and monitor over the last `days` days, the days counted in the user's time
 * zone (today included). The day of each match is found by comparing its instant with the
 * instants at which those days start (`width_bucket` over a sorted array), computed once per
 * request, so no row is converted to local time; the rows are read index-only from
 * (user_id, matched_at, monitor_id).
 */
export async function matchStats(
  ctx: { db: Database },
  input: { userId: string; days: number; by?: 'monitor' | 'sentiment' },
): Promise<MatchStats> {
  const [user] = await ctx.db
    .select({ timezone: users.timezone })
    .from(users)
    .where(eq(users.id, input.userId));
  const timezone = user?.timezone ?? 'UTC';
  const zone = postgresTimeZone(timezone);
  const today = sql`(now() at time zone ${zone})::date`;
  // The instant each day starts, oldest first; the first is the start of the window.
  const starts = sql`array(select (${today} - k)::timestamp at time zone ${zone}
    from generate_series(${input.days - 1}::int, 0, -1) as k)`;
  // Split by sentiment, the rows are read from the table, not the index alone.
  const split = input.by === 'sentiment';
  const sentiment = split ? sql`, ${matches.sentiment}` : sql``;
  const sentimentOut = split ? sql`, sentiment` : sql``;
  const rows = await ctx.db.execute(sql`
    with window_days as (select ${starts} as starts)
    select to_char(${today} - (${input.days}::int - day), 'YYYY-MM-DD') as date,
      monitor_id as "monitorId"${sentimentOut}, n as count
    from (
      select width_bucket(${matches.matchedAt}, w.starts) as day, ${matches.monitorId}${sentiment},
        count(*)::int as n
      from ${matches}, window_days as w
      where ${matches.userId} = ${input.userId} and ${matches.matchedAt} >= w.starts[1]
      group by ${split ? sql`1, 2, 3` : sql`1, 2`}
    ) as per_day
    order by ${split ? sql`1, 2, 3` : sql`1, 2`}`);
  const days = rowsOf<{
    date: string;
    monitorId: string;
    sentiment?: Sentiment | null;
    count: number;
  }>(rows);
  return { timezone, days: days.map((row) => ({ ...row, count: Number(row.count) })) };
}
