import { eq } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { alertFeeds } from '../../db/schema/alert-feeds.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { listMatches } from '../../matches/list-matches.ts';
import { ALERT_FEED_SIZE, type AlertFeedFormat, alertFeedUrls } from '../../shared/alert-feeds.ts';
import { NotFoundError } from '../errors.ts';
import { hashAlertFeedToken, isWellFormedAlertFeedToken } from './alert-feed-token.ts';
import { type RenderedFeed, renderAlertFeed } from './render-alert-feed.ts';

const feedNotFound = () =>
  new NotFoundError('There is no such feed. Its link may have been reset: copy the new one.');

/**
 * The feed behind a token, in one format: no sign-in, the token is the proof. A token that was
 * reset or never made, and one whose monitor is gone, read the same: not found.
 */
export async function readAlertFeed(
  ctx: { db: Database; config: Pick<Config, 'publicUrl'> },
  input: { token: string; format: AlertFeedFormat },
): Promise<RenderedFeed> {
  if (!isWellFormedAlertFeedToken(input.token)) throw feedNotFound();
  const [feed] = await ctx.db
    .select({
      userId: alertFeeds.userId,
      monitorId: alertFeeds.monitorId,
      createdAt: alertFeeds.createdAt,
      monitorName: monitors.name,
      monitorQuery: monitors.query,
    })
    .from(alertFeeds)
    .leftJoin(monitors, eq(monitors.id, alertFeeds.monitorId))
    .where(eq(alertFeeds.tokenHash, hashAlertFeedToken(input.token)));
  if (!feed) throw feedNotFound();
  const page = await listMatches(ctx, {
    userId: feed.userId,
    query: {
      limit: ALERT_FEED_SIZE,
      sort: 'time',
      ...(feed.monitorId ? { monitorId: feed.monitorId } : {}),
    },
  });
  // A monitor is called by its name, or its query when it has none (as in the emails).
  const label = feed.monitorQuery !== null ? feed.monitorName?.trim() || feed.monitorQuery : null;
  const base = ctx.config.publicUrl;
  return renderAlertFeed(
    input.format,
    {
      title: label ? `Earshot: ${label}` : 'Earshot: all alerts',
      description: label
        ? `The latest ${ALERT_FEED_SIZE} matches of the monitor “${label}”.`
        : `The latest ${ALERT_FEED_SIZE} matches of all your monitors.`,
      homeUrl: `${base}/dashboard/alerts`,
      selfUrls: alertFeedUrls(base, input.token),
      since: feed.createdAt,
    },
    page.items,
  );
}
