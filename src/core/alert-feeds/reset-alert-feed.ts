import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { alertFeeds } from '../../db/schema/alert-feeds.ts';
import {
  alertFeedUrls,
  type CreatedAlertFeed,
  type ResetAlertFeedBody,
} from '../../shared/alert-feeds.ts';
import { getMonitor } from '../monitors/get-monitor.ts';
import { generateAlertFeedToken } from './alert-feed-token.ts';
import { toAlertFeed } from './to-alert-feed.ts';

/**
 * Makes the link of a monitor's feed (or, with `monitorId: null`, of all the user's matches), or
 * resets it: a new token replaces the old one's hash on the same row, so the old link answers 404
 * from the next request on. The answer is the only time the link is shown.
 */
export async function resetAlertFeed(
  ctx: { db: Database; config: Pick<Config, 'publicUrl'>; now?: () => Date },
  input: { userId: string; body: ResetAlertFeedBody },
): Promise<CreatedAlertFeed> {
  const { monitorId } = input.body;
  if (monitorId) await getMonitor(ctx, { userId: input.userId, monitorId });
  const { token, hash } = generateAlertFeedToken();
  const createdAt = ctx.now?.() ?? new Date();
  const [row] = await ctx.db
    .insert(alertFeeds)
    .values({ userId: input.userId, monitorId, tokenHash: hash, createdAt })
    .onConflictDoUpdate({
      target: [alertFeeds.userId, alertFeeds.monitorId],
      set: { tokenHash: hash, createdAt },
    })
    .returning();
  if (!row) throw new Error('The upsert returned no alert feed.');
  return { ...toAlertFeed(row), urls: alertFeedUrls(ctx.config.publicUrl, token) };
}
