import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { matchColumns, toMatch } from '../../matches/to-match.ts';
import type { Match } from '../../shared/match.ts';
import { matchNotFound } from './match-not-found.ts';

/** Marks one of the user's matches read or unread; the first read time is kept. */
export async function setMatchRead(
  ctx: { db: Database },
  input: { userId: string; matchId: string; read: boolean },
): Promise<Match> {
  const [row] = await ctx.db
    .update(matches)
    .set({ readAt: input.read ? sql`coalesce(${matches.readAt}, now())` : null })
    .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)))
    .returning(matchColumns);
  if (!row) throw matchNotFound();
  return toMatch(row);
}
