import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { matchColumns, toMatch } from '../../matches/to-match.ts';
import type { Match } from '../../shared/match.ts';
import { matchNotFound } from './match-not-found.ts';

/** One of the user's matches; another user's id reads as not found. */
export async function getMatch(
  ctx: { db: Database },
  input: { userId: string; matchId: string },
): Promise<Match> {
  const [row] = await ctx.db
    .select(matchColumns)
    .from(matches)
    .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)));
  if (!row) throw matchNotFound();
  return toMatch(row);
}
