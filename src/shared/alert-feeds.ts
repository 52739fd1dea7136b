import { z } from 'zod';

/**
 * Alert feeds (docs/decisions/0039-alert-feeds.md): a monitor's latest matches, or all of a
 * user's, as RSS 2.0, Atom 1.0 and JSON Feed 1.1 at a URL with a secret token in it. Made and
 * reset under /api/alert-feeds; read, without signing in, at `/feeds/<token>/<file>`.
 */
export const ALERT_FEED_FORMATS = ['rss', 'atom', 'json'] as const;
export type AlertFeedFormat = (typeof ALERT_FEED_FORMATS)[number];

/** The file name of each format in a feed's URL. */
export const ALERT_FEED_FILES: Record<AlertFeedFormat, string> = {
  rss: 'rss.xml',
  atom: 'atom.xml',
  json: 'feed.json',
};

/** How many matches a feed lists, newest first. */
export const ALERT_FEED_SIZE = 50;

/** The path of a feed in one format: `/feeds/<token>/rss.xml`. */
export function alertFeedPath(token: string, format: AlertFeedFormat): string {
  return `/feeds/${token}/${ALERT_FEED_FILES[format]}`;
}

/** A feed's URLs in every format, on the server's public URL. */
export function alertFeedUrls(publicUrl: string, token: string): Record<AlertFeedFormat, string> {
  return {
    rss: publicUrl + alertFeedPath(token, 'rss'),
    atom: publicUrl + alertFeedPath(token, 'atom'),
    json: publicUrl + alertFeedPath(token, 'json'),
  };
}

export const alertFeedSchema = z.object({
  id: z.uuid(),
  /** The monitor whose matches it lists; null for all of the user's matches. */
  monitorId: z.uuid().nullable(),
  /** When its link was made or last reset (ISO 8601). */
  createdAt: z.string(),
});
export type AlertFeed = z.infer<typeof alertFeedSchema>;

/** The answer to making or resetting a feed's link: the only time its URLs are shown. */
export const createdAlertFeedSchema = alertFeedSchema.extend({
  urls: z.object({ rss: z.string(), atom: z.string(), json: z.string() }),
});
export type CreatedAlertFeed = z.infer<typeof createdAlertFeedSchema>;

export const resetAlertFeedBodySchema = z.strictObject({
  monitorId: z.uuid('must be a monitor id').nullable(),
});
export type ResetAlertFeedBody = z.infer<typeof resetAlertFeedBodySchema>;
