import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { feedSubscriptions } from '../../db/schema/feeds.ts';
import { checkFeedId, feedNotFound } from './feed-context.ts';

/**
 * Removes the user's feed. The shared feed stays for its other subscribers; one nobody follows
 * any more is no longer fetched (the poller claims only feeds with an unpaused subscriber).
 */
export async function removeFeed(
  ctx: { db: Database },
  input: { userId: string; id: string },
): Promise<void> {
  checkFeedId(input.id);
  const deleted = await ctx.db
    .delete(feedSubscriptions)
    .where(and(eq(feedSubscriptions.id, input.id), eq(feedSubscriptions.userId, input.userId)))
    .returning({ id: feedSubscriptions.id });
  if (deleted.length === 0) throw feedNotFound();
}
