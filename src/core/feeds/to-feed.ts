import { and, asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import {
  type FeedRow,
  type FeedSubscriptionRow,
  feedSubscriptions,
  feeds,
} from '../../db/schema/feeds.ts';
import type { Feed } from '../../shared/feeds.ts';
import { checkFeedId, feedNotFound } from './feed-context.ts';

/** A user's subscription and its shared feed, as the owner sees it. */
export function toFeed(subscription: FeedSubscriptionRow, feed: FeedRow): Feed {
  return {
    id: subscription.id,
    name: subscription.name,
    kind: feed.kind,
    url: feed.url,
    paused: subscription.pausedAt !== null,
    createdAt: subscription.createdAt.toISOString(),
    health: {
      lastSuccessAt: feed.lastSuccessAt?.toISOString() ?? null,
      lastFetchAt: feed.lastFetchAt?.toISOString() ?? null,
      itemsSeen: feed.itemsSeen,
      error: feed.lastError,
    },
  };
}

/** The user's feeds, oldest first; `id` narrows to one (another user's reads as none). */
export async function readOwnFeeds(db: Database, userId: string, id?: string): Promise<Feed[]> {
  const rows = await db
    .select({ subscription: feedSubscriptions, feed: feeds })
    .from(feedSubscriptions)
    .innerJoin(feeds, eq(feeds.id, feedSubscriptions.feedId))
    .where(
      id === undefined
        ? eq(feedSubscriptions.userId, userId)
        : and(eq(feedSubscriptions.userId, userId), eq(feedSubscriptions.id, id)),
    )
    .orderBy(asc(feedSubscriptions.createdAt), asc(feedSubscriptions.id));
  return rows.map((row) => toFeed(row.subscription, row.feed));
}

/** One of the user's feeds, or not-found (also for another user's). */
export async function getOwnFeed(db: Database, userId: string, id: string): Promise<Feed> {
  checkFeedId(id);
  const [feed] = await readOwnFeeds(db, userId, id);
  if (!feed) throw feedNotFound();
  return feed;
}
