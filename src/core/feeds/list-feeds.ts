import type { Database } from '../../db/client.ts';
import type { Feed } from '../../shared/feeds.ts';
import { readOwnFeeds } from './to-feed.ts';

/** The feeds the user added, with each one's health (GET /api/feeds). */
export function listFeeds(ctx: { db: Database }, input: { userId: string }): Promise<Feed[]> {
  return readOwnFeeds(ctx.db, input.userId);
}
