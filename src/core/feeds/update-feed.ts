import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { feedSubscriptions } from '../../db/schema/feeds.ts';
import type { Feed, UpdateFeedBody } from '../../shared/feeds.ts';
import { checkFeedId, feedNotFound } from './feed-context.ts';
import { getOwnFeed } from './to-feed.ts';

/**
 * Pauses or resumes the user's feed (PATCH /api/feeds/:id): a paused feed's items reach none of
 * the user's monitors, and a feed nobody follows unpaused is not fetched.
 */
export async function updateFeed(
  ctx: { db: Database },
  input: { userId: string; id: string; change: UpdateFeedBody },
): Promise<Feed> {
  checkFeedId(input.id);
  const updated = await ctx.db
    .update(feedSubscriptions)
    .set({ pausedAt: input.change.paused ? new Date() : null })
    .where(and(eq(feedSubscriptions.id, input.id), eq(feedSubscriptions.userId, input.userId)))
    .returning({ id: feedSubscriptions.id });
  if (updated.length === 0) throw feedNotFound();
  return getOwnFeed(ctx.db, input.userId, input.id);
}
