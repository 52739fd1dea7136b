import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { relevanceInputColumns } from '../../matches/monitor-relevance.ts';
import { matchNotFound } from './match-not-found.ts';
import { learnFromDismissal } from './rate-match.ts';

/**
 * Removes one of the user's matches from the feed. The unique key stays free, but the item is
 * never matched again (the pipeline only reads new items), so a dismissed alert stays gone.
 * An unrated dismissed match teaches its monitor's relevance model a weak "not relevant".
 */
export async function dismissMatch(
  ctx: { db: Database },
  input: { userId: string; matchId: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(matches)
      .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)))
      .returning({ ...relevanceInputColumns, monitorId: matches.monitorId });
    if (!deleted) throw matchNotFound();
    await learnFromDismissal(tx, deleted);
  });
}
