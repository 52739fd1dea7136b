import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { alertFeeds } from '../../db/schema/alert-feeds.ts';
import { NotFoundError } from '../errors.ts';

/** Turns a feed's link off without making a new one: it answers 404 from now on. */
export async function deleteAlertFeed(
  ctx: { db: Database },
  input: { userId: string; feedId: string },
): Promise<void> {
  const deleted = await ctx.db
    .delete(alertFeeds)
    .where(and(eq(alertFeeds.id, input.feedId), eq(alertFeeds.userId, input.userId)))
    .returning({ id: alertFeeds.id });
  if (deleted.length === 0) throw new NotFoundError('There is no such alert feed.');
}
