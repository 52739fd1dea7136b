import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { matchNotFound } from './match-not-found.ts';

/**
 * Removes one of the user's matches from the feed. The unique key stays free, but the item is
 * never matched again (the pipeline only reads new items), so a dismissed alert stays gone.
 */
export async function dismissMatch(
  ctx: { db: Database },
  input: { userId: string; matchId: string },
): Promise<void> {
  const deleted = await ctx.db
    .delete(matches)
    .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)))
    .returning({ id: matches.id });
  if (deleted.length === 0) throw matchNotFound();
}
