import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { alertFeeds } from '../../db/schema/alert-feeds.ts';
import type { AlertFeed } from '../../shared/alert-feeds.ts';
import { toAlertFeed } from './to-alert-feed.ts';

/** The user's alert feeds that have a link: which monitors (null: all) and since when. */
export async function listAlertFeeds(ctx: { db: Database }, userId: string): Promise<AlertFeed[]> {
  const rows = await ctx.db
    .select()
    .from(alertFeeds)
    .where(eq(alertFeeds.userId, userId))
    .orderBy(asc(alertFeeds.createdAt), asc(alertFeeds.id));
  return rows.map(toAlertFeed);
}
