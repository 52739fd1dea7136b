import { and, desc, gte, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import type { Match } from '../../shared/match.ts';
import { matchColumns, toMatch } from './to-match.ts';

/**
 * The matches of these users stored since `since` (their transaction's start), oldest first, the
 * newest `limit` of them: how the live feed hears of matches another process committed.
 */
export async function listRecentMatches(
  ctx: { db: Database },
  input: { userIds: readonly string[]; since: Date; limit: number },
): Promise<{ userId: string; match: Match }[]> {
  if (input.userIds.length === 0) return [];
  const rows = await ctx.db
    .select(matchColumns)
    .from(matches)
    .where(and(inArray(matches.userId, [...input.userIds]), gte(matches.matchedAt, input.since)))
    .orderBy(desc(matches.id))
    .limit(input.limit);
  return rows.reverse().map((row) => ({ userId: row.userId, match: toMatch(row) }));
}
