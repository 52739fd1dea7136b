import { and, asc, gte, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { matches } from '../db/schema/matches.ts';
import type { Match } from '../shared/match.ts';
import { storedMatch } from './stored-match.ts';

/**
 * The matches of these users stored since `since` (their transaction's start), less those whose
 * ids are in `known` (the caller has them already), oldest first, at most `limit`: how the live
 * feed reads new matches, whichever process committed them.
 */
export async function listRecentMatches(
  ctx: { db: Database },
  input: {
    userIds: readonly string[];
    since: Date;
    known: readonly number[];
    limit: number;
  },
): Promise<{ userId: string; match: Match }[]> {
  if (input.userIds.length === 0) return [];
  const rows = await ctx.db
    .select({
      userId: matches.userId,
      feed_json: matches.feedJson,
      read: sql<boolean>`${matches.readAt} is not null`,
      rating: matches.rating,
      relevance: matches.relevance,
      relevance_reasons: matches.relevanceReasons,
    })
    .from(matches)
    .where(
      and(
        inArray(matches.userId, [...input.userIds]),
        gte(matches.matchedAt, input.since),
        input.known.length > 0
          ? sql`not (${matches.id} = any(${sql.param(input.known)}::bigint[]))`
          : undefined,
      ),
    )
    .orderBy(asc(matches.id))
    .limit(input.limit);
  return rows.map((row) => ({ userId: row.userId, match: storedMatch(row) }));
}
