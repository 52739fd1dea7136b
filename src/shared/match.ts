import { z } from 'zod';
import {
  INTENTS,
  intentSchema,
  LANGUAGE_PATTERN,
  languageSchema,
  SENTIMENTS,
  sentimentSchema,
} from './signals.ts';
import { SOURCE_NAMES } from './sources.ts';

/** Wire contracts of /api/matches and of the `match` server-sent event. */

/**
 * Where each field of a match comes from in its stored row (`matches`):
 * - `column`: the column of the same name, as it is;
 * - `instant`: the timestamp column of the same name, in ISO 8601 (UTC, milliseconds, "Z");
 * - `id`: the row's id, as a decimal string;
 * - `read`: whether the row's `readAt` is set;
 * - `live`: the column of the same name, which changes after the insert (a rating, a new score).
 * `read` and `live` fields change after the insert, so the JSON stored with the row leaves them
 * out and the reader adds them.
 */
export type MatchFieldSource = 'column' | 'instant' | 'id' | 'read' | 'live';

/** The source of each field of `matchSchema`, looked up by the field's schema. */
export const matchFieldSources = z.registry<{ from: MatchFieldSource }>();

function field<Schema extends z.ZodType>(from: MatchFieldSource, schema: Schema): Schema {
  const registered: z.ZodType = schema;
  matchFieldSources.add(registered, { from });
  return schema;
}
const column = <Schema extends z.ZodType>(schema: Schema) => field('column', schema);
const live = <Schema extends z.ZodType>(schema: Schema) => field('live', schema);
const instant = () => field('instant', z.string());
const ranges = () => z.array(z.tuple([z.number().int(), z.number().int()]));

/** How a user can rate a match. */
export const MATCH_RATINGS = ['relevant', 'irrelevant'] as const;
export type MatchRating = (typeof MATCH_RATINGS)[number];

/** The fields of an item a monitor's terms can hit. */
export const HIT_FIELDS = ['title', 'body', 'url'] as const;
export type HitField = (typeof HIT_FIELDS)[number];

/**
 * A match as the API, the live feed and the webhooks send it: the one list of its fields, in the
 * order they are sent. The row mapper (`toMatch`, src/matches/to-match.ts) and the JSON stored
 * with each row (`match_feed_json`, src/db/match-feed-json.ts) are derived from it, so a field
 * is one line here (plus its column, if the row does not have it yet).
 */
export const matchSchema = z.object({
  /** Opaque; a decimal string. */
  id: field('id', z.string()),
  monitorId: column(z.string()),
  source: column(z.enum(SOURCE_NAMES)),
  kind: column(z.enum(['post', 'comment'])),
  title: column(z.string().nullable()),
  /** `[start, end)` UTF-16 offsets of the hits in `title`. */
  titleHighlights: column(ranges()),
  /** A comment's thread: the title of the post it belongs to; null for posts and when unknown. */
  threadTitle: column(z.string().nullable()),
  /**
   * The thread: the site's id of the post the item belongs to (a post's own id); null when
   * unknown. Matches of one monitor with the same `source` and `threadId` are one conversation.
   */
  threadId: column(z.string().nullable()),
  /**
   * About 300 characters of the item's body around its first hit, as plain text; the URL when
   * there is no body and the hit is in it; '' when there is no body (the title says it all).
   */
  snippet: column(z.string()),
  /** `[start, end)` UTF-16 offsets of the hits in `snippet`. */
  highlights: column(ranges()),
  /** Where the monitor's terms hit the item, in this order; empty for matches from before 0016. */
  hitFields: column(z.array(z.enum(HIT_FIELDS))),
  /** The link of a link post; null for self-posts and comments. */
  url: column(z.string().nullable()),
  /** The item on its site. */
  permalink: column(z.string()),
  author: column(z.string().nullable()),
  /** The subreddit; null elsewhere. */
  community: column(z.string().nullable()),
  /** What the item is doing, in the order of `INTENTS` (src/shared/signals.ts); hints, often none. */
  intents: column(z.array(intentSchema)),
  /** The item's tone; null when it is not in English or came before signals. */
  sentiment: column(sentimentSchema.nullable()),
  /** ISO 639-1; null when unknown. */
  language: column(z.string().nullable()),
  /** The user corrected `intents`, `sentiment` or `language` (they are the user's, not read). */
  signalsCorrected: column(z.boolean()),
  /** ISO 8601. */
  itemCreatedAt: instant(),
  matchedAt: instant(),
  read: field('read', z.boolean()),
  /** The user's judgement (PUT /api/matches/{id}/feedback); null until rated. */
  rating: live(z.enum(MATCH_RATINGS).nullable()),
  /**
   * How likely this is what the monitor's owner means, 0 to 1 (docs/product.md, "Relevance");
   * null for matches stored before relevance was scored.
   */
  relevance: live(z.number().nullable()),
  /** Up to three reasons for `relevance`, in words. */
  relevanceReasons: live(z.array(z.string())),
});
export type Match = z.infer<typeof matchSchema>;

/** The fields of a match that change after it is stored: the reader adds them to its JSON. */
export const LIVE_MATCH_FIELDS = Object.entries(matchSchema.shape).flatMap(([key, schema]) =>
  matchFieldSources.get(schema)?.from === 'live' ? [key as keyof Match] : [],
);

export const matchPageSchema = z.object({
  items: z.array(matchSchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type MatchPage = z.infer<typeof matchPageSchema>;

export const MATCH_PAGE_MAX = 100;
export const MATCH_SEARCH_MAX_LENGTH = 200;

/** GET /api/matches: filters and the page. `cursor` is the `nextCursor` of the page before. */
export const listMatchesQuerySchema = z.strictObject({
  monitorId: z.uuid('must be a monitor id').optional(),
  source: z.enum(SOURCE_NAMES).optional(),
  unread: z.enum(['true', 'false'], 'must be true or false').optional(),
  /** Only matches whose item has this intent (src/shared/signals.ts). */
  intent: z.enum(INTENTS, `must be one of ${INTENTS.join(', ')}`).optional(),
  sentiment: z.enum(SENTIMENTS, `must be one of ${SENTIMENTS.join(', ')}`).optional(),
  /** ISO 639-1. */
  lang: z
    .string()
    .trim()
    .toLowerCase()
    .regex(LANGUAGE_PATTERN, 'must be a two-letter language code like en')
    .optional(),
  /** Words to search; `intent:`, `sentiment:` and `lang:` (and `-intent:` …) filter as in queries. */
  q: z
    .string()
    .trim()
    .max(MATCH_SEARCH_MAX_LENGTH, `must be at most ${MATCH_SEARCH_MAX_LENGTH} characters`)
    .optional(),
  /** Only matches at least this relevant (0 to 1); matches not scored yet are left out. */
  minRelevance: z.coerce
    .number({ error: 'must be a number from 0 to 1' })
    .min(0, 'must be a number from 0 to 1')
    .max(1, 'must be a number from 0 to 1')
    .optional(),
  /**
   * `true`: only the matches under their monitor's relevance threshold (the feed's "Low
   * relevance"); `false`: all but those.
   */
  lowRelevance: z.enum(['true', 'false'], 'must be true or false').optional(),
  /** `time` (newest first, the default) or `relevance` (most relevant first, then newest). */
  sort: z.enum(['time', 'relevance'], 'must be time or relevance').default('time'),
  cursor: z
    .string()
    .regex(/^([0-9]{1,7}-)?[1-9][0-9]{0,15}$/, 'must be the nextCursor of an earlier page')
    .optional(),
  limit: z.coerce
    .number({ error: 'must be a whole number from 1 to 100' })
    .int('must be a whole number from 1 to 100')
    .min(1, 'must be a whole number from 1 to 100')
    .max(MATCH_PAGE_MAX, 'must be a whole number from 1 to 100')
    .default(50),
});
export type ListMatchesQuery = z.infer<typeof listMatchesQuerySchema>;

/** GET /api/matches/export: the feed's filters, every page; `format` is csv (the only one yet). */
export const exportMatchesQuerySchema = listMatchesQuerySchema
  .omit({ cursor: true, limit: true, sort: true })
  .extend({ format: z.enum(['csv'], 'must be csv') });
export type ExportMatchesQuery = z.infer<typeof exportMatchesQuerySchema>;

/** A match's id as the API takes it (path parameter, MCP argument). */
/** A match's id as it appears in paths and bodies: its row id, in decimal. */
export const MATCH_ID_PATTERN = /^[1-9][0-9]{0,15}$/;
export const matchIdSchema = z.string().regex(MATCH_ID_PATTERN, 'must be an alert id');

export const updateMatchBodySchema = z.strictObject({ read: z.boolean() });

/** PUT /api/matches/:id/signals: the user's correction of the hints; what is left out stays. */
export const updateMatchSignalsBodySchema = z
  .strictObject({
    intents: z
      .array(intentSchema)
      .max(INTENTS.length)
      .refine((list) => new Set(list).size === list.length, 'must not repeat an intent')
      .optional(),
    sentiment: sentimentSchema.nullable().optional(),
    language: languageSchema.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'must correct intents, sentiment or language');
export type UpdateMatchSignalsBody = z.infer<typeof updateMatchSignalsBodySchema>;
export type UpdateMatchBody = z.infer<typeof updateMatchBodySchema>;

export const matchFeedbackBodySchema = z.strictObject({
  rating: z.enum(MATCH_RATINGS, 'must be relevant, irrelevant or null').nullable(),
});
export type MatchFeedbackBody = z.infer<typeof matchFeedbackBodySchema>;

/** What an alert email's rating link does: the rating it gives, the alert, its rating now. */
export const ratingLinkSchema = z.object({
  rating: z.enum(MATCH_RATINGS),
  title: z.string(),
  current: z.enum(MATCH_RATINGS).nullable(),
});
export type RatingLink = z.infer<typeof ratingLinkSchema>;

export const applyRatingLinkBodySchema = z.strictObject({
  token: z.string().max(200, 'must be the token of an email link'),
  /** Takes the rating back. */
  undo: z.boolean().default(false),
});

export const markMatchesReadBodySchema = z.strictObject({
  monitorId: z.uuid('must be a monitor id').optional(),
});
export type MarkMatchesReadBody = z.infer<typeof markMatchesReadBodySchema>;

export const markMatchesReadResultSchema = z.object({ updated: z.number().int() });

export const MATCH_STATS_MAX_DAYS = 90;

export const matchStatsQuerySchema = z.strictObject({
  days: z.coerce
    .number({ error: 'must be a whole number from 1 to 90' })
    .int('must be a whole number from 1 to 90')
    .min(1, 'must be a whole number from 1 to 90')
    .max(MATCH_STATS_MAX_DAYS, 'must be a whole number from 1 to 90')
    .default(30),
  /** `sentiment`: each day and monitor's count split by the matches' sentiment too. */
  by: z.enum(['monitor', 'sentiment'], 'must be monitor or sentiment').default('monitor'),
});

/** Matches per day (`YYYY-MM-DD` in the user's time zone) and monitor; days without any are left out. */
export const matchStatsSchema = z.object({
  timezone: z.string(),
  days: z.array(
    z.object({
      date: z.string(),
      monitorId: z.string(),
      /** With `by=sentiment` only: the matches' sentiment, null for those without one. */
      sentiment: sentimentSchema.nullable().optional(),
      count: z.number().int(),
    }),
  ),
});
export type MatchStats = z.infer<typeof matchStatsSchema>;
