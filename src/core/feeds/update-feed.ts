import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { feedSubscriptions } from '../../db/schema/feeds.ts';
import type { Feed, UpdateFeedBody } from '../../shared/feeds.ts';
import { ConflictError } from '../errors.ts';
import { checkFeedId, feedNotFound } from './feed-context.ts';
import { getOwnFeed } from './to-feed.ts';

/** Pauses or resumes the user's feed, or renames it (PATCH /api/feeds/:id). */
export async function updateFeed(
  ctx: { db: Database },
  input: { userId: string; id: string; change: UpdateFeedBody },
): Promise<Feed> {
  checkFeedId(input.id);
  const { paused, name } = input.change;
  if (name !== undefined) {
    const [taken] = await ctx.db
      .select({ id: feedSubscriptions.id })
      .from(feedSubscriptions)
      .where(
        and(
          eq(feedSubscriptions.userId, input.userId),
          eq(feedSubscriptions.name, name),
          ne(feedSubscriptions.id, input.id),
        ),
      );
    if (taken) throw new ConflictError(`You already have a feed named "${name}".`);
  }
  const updated = await ctx.db
    .update(feedSubscriptions)
    .set({
      ...(paused === undefined ? {} : { pausedAt: paused ? new Date() : null }),
      ...(name === undefined ? {} : { name }),
    })
    .where(and(eq(feedSubscriptions.id, input.id), eq(feedSubscriptions.userId, input.userId)))
    .returning({ id: feedSubscriptions.id });
  if (updated.length === 0) throw feedNotFound();
  return getOwnFeed(ctx.db, input.userId, input.id);
}
