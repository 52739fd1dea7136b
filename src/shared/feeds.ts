import { z } from 'zod';

/** Wire contracts of /api/feeds: feeds and Discourse forums a user adds by URL. */

export const FEED_KIND_NAMES = ['rss', 'atom', 'json', 'discourse'] as const;
export const feedKindSchema = z.enum(FEED_KIND_NAMES);
export type FeedKindName = z.infer<typeof feedKindSchema>;

/** How each kind is named to people. */
export const FEED_KIND_LABELS: Record<FeedKindName, string> = {
  rss: 'RSS',
  atom: 'Atom',
  json: 'JSON Feed',
  discourse: 'Discourse forum',
};

export const FEED_URL_MAX_LENGTH = 2000;

/** POST /api/feeds and POST /api/feeds/preview. */
export const feedUrlBodySchema = z.strictObject({
  url: z
    .string({ error: 'give the address of a feed, a forum or a page that links one' })
    .trim()
    .min(1, 'give the address of a feed, a forum or a page that links one')
    .max(FEED_URL_MAX_LENGTH, `must be at most ${FEED_URL_MAX_LENGTH} characters`),
});
export type FeedUrlBody = z.infer<typeof feedUrlBodySchema>;

/** PATCH /api/feeds/:id: pause or resume. */
export const updateFeedBodySchema = z.strictObject({
  paused: z.boolean({ error: 'must be true or false' }),
});
export type UpdateFeedBody = z.infer<typeof updateFeedBodySchema>;

/** An item of a feed as the preview shows it. */
export const feedPreviewItemSchema = z.object({
  kind: z.enum(['post', 'comment']),
  title: z.string().nullable(),
  /** The start of the text, at most 300 characters. */
  text: z.string(),
  permalink: z.string().nullable(),
  author: z.string().nullable(),
  /** ISO 8601; null when the feed gives no date. */
  createdAt: z.string().nullable(),
});

/** The answer of POST /api/feeds/preview. */
export const feedPreviewSchema = z.object({
  /** What would be fetched: the feed's own address, or the forum's root. */
  url: z.string(),
  name: z.string(),
  kind: feedKindSchema,
  /** The last five items. */
  items: z.array(feedPreviewItemSchema),
});
export type FeedPreview = z.infer<typeof feedPreviewSchema>;

/** How a feed is doing, as its owner sees it. */
export const feedHealthSchema = z.object({
  lastSuccessAt: z.string().nullable(),
  lastFetchAt: z.string().nullable(),
  /** Items read from it since it was added (by anyone: the fetch is shared). */
  itemsSeen: z.number().int(),
  /** The last fetch's failure, in words ("404 Not Found", "not a feed"); null when it worked. */
  error: z.string().nullable(),
});

/** A feed the user added. */
export const feedSchema = z.object({
  /** Opaque: the user's subscription, not the shared feed. */
  id: z.string(),
  /** The feed's own title (else its host): what `feed:"…"` names, and its items' community. */
  name: z.string(),
  kind: feedKindSchema,
  url: z.string(),
  paused: z.boolean(),
  createdAt: z.string(),
  health: feedHealthSchema,
});
export type Feed = z.infer<typeof feedSchema>;

export const feedListSchema = z.object({ items: z.array(feedSchema) });
