import { and, count, eq } from 'drizzle-orm';
import { feedSubscriptions, feeds } from '../../db/schema/feeds.ts';
import type { Feed } from '../../shared/feeds.ts';
import { discoverFeed } from '../../sources/feeds/discover-feed.ts';
import { ConflictError, LimitReachedError } from '../errors.ts';
import { type FeedCtx, feedFetchOptions, feedUrlRefused } from './feed-context.ts';
import { checkedFeedUrl } from './preview-feed.ts';
import { getOwnFeed } from './to-feed.ts';

/**
 * Adds a feed or forum by URL for the user (POST /api/feeds): finds what the URL is (as the
 * preview does), keeps one shared feed per fetched address, and subscribes the user to it under
 * the feed's name (`feed:"<name>"` names it). At most MAX_FEEDS_PER_USER; adding the same feed
 * twice is a conflict.
 */
export async function addFeed(ctx: FeedCtx, input: { userId: string; url: string }): Promise<Feed> {
  const limit = ctx.config.MAX_FEEDS_PER_USER;
  const owned = await countOwnFeeds(ctx, input.userId);
  if (owned >= limit) {
    throw new LimitReachedError(`You can add at most ${limit} feeds. Remove one first.`, { limit });
  }
  const url = checkedFeedUrl(input.url);
  const found = await discoverFeed(url, feedFetchOptions(ctx.config)).catch(feedUrlRefused);
  const id = await ctx.db.transaction(async (tx) => {
    const [feed] = await tx
      .insert(feeds)
      .values({ url: found.url, kind: found.kind, title: found.name })
      .onConflictDoUpdate({ target: feeds.url, set: { kind: found.kind, title: found.name } })
      .returning({ id: feeds.id });
    if (!feed) throw new Error('The feed was not stored.');
    const [already] = await tx
      .select({ id: feedSubscriptions.id })
      .from(feedSubscriptions)
      .where(
        and(eq(feedSubscriptions.userId, input.userId), eq(feedSubscriptions.feedId, feed.id)),
      );
    if (already) throw new ConflictError('You have already added this feed.');
    const [subscription] = await tx
      .insert(feedSubscriptions)
      .values({ userId: input.userId, feedId: feed.id, name: found.name })
      .returning({ id: feedSubscriptions.id });
    if (!subscription) throw new Error('The subscription was not stored.');
    return subscription.id;
  });
  return getOwnFeed(ctx.db, input.userId, id);
}

async function countOwnFeeds(ctx: FeedCtx, userId: string): Promise<number> {
  const [row] = await ctx.db
    .select({ n: count() })
    .from(feedSubscriptions)
    .where(eq(feedSubscriptions.userId, userId));
  return row?.n ?? 0;
}
