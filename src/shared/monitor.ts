import { z } from 'zod';
import { matchSchema } from './match.ts';
import { isPlainText, PLAIN_TEXT_MESSAGE } from './plain-text.ts';
import { SOURCE_NAMES } from './sources.ts';
import { monitorWebhookSchema, setWebhookBodySchema } from './webhook.ts';

/** Wire contracts of /api/monitors, shared by the server and the web app. */

export const MONITOR_QUERY_MAX_LENGTH = 500;
export const MONITOR_NAME_MAX_LENGTH = 100;

export const monitorSourcesSchema = z
  .array(z.enum(SOURCE_NAMES))
  .min(1, 'choose at least one source')
  .transform((sources) => [...new Set(sources)]);

/**
 * A monitor's rhythm (docs/product.md, "Delivery"): `default` follows the user's email setting;
 * `instant`, `hourly`, `daily` (08:00) and `weekly` (Monday 08:00, the user's wall clock) override
 * it for this monitor's email and webhook; `feed` sends neither (the feed only).
 */
export const MONITOR_DELIVERIES = [
  'default',
  'instant',
  'hourly',
  'daily',
  'weekly',
  'feed',
] as const;
export const monitorDeliverySchema = z.enum(MONITOR_DELIVERIES, {
  error: `must be one of ${MONITOR_DELIVERIES.join(', ')}`,
});
export type MonitorDelivery = z.infer<typeof monitorDeliverySchema>;

export const monitorSchema = z.object({
  id: z.string(),
  name: z.string(),
  query: z.string(),
  sources: z.array(z.enum(SOURCE_NAMES)),
  /**
   * The sources among `sources` the query can match items from: `site:hackernews` narrows them
   * to Hacker News, `r/rust` to Reddit (read-only, derived from the query).
   */
  matchableSources: z.array(z.enum(SOURCE_NAMES)),
  paused: z.boolean(),
  emailMuted: z.boolean(),
  /**
   * Matches scored under this relevance (0 to 1) are kept in the feed under "Low relevance" and
   * neither emailed nor sent to the webhook; null (the default) holds nothing back.
   */
  relevanceThreshold: z.number().nullable(),
  delivery: monitorDeliverySchema,
  /**
   * An email when today's matches (by the items' time, the owner's local day) pass three times
   * the median of the 14 days before, and at least 10; once a day at most, naming the top threads.
   */
  spikeAlerts: z.boolean(),
  /**
   * Threads muted from an alert email's link (decision 0038): their matches are not stored for
   * this monitor. `PATCH { unmuteThread: { source, threadId } }` lifts one.
   */
  mutedThreads: z.array(
    z.object({
      source: z.enum(SOURCE_NAMES),
      threadId: z.string(),
      title: z.string().nullable(),
      /** ISO 8601. */
      mutedAt: z.string(),
    }),
  ),
  /** ISO 8601. */
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Matches found so far. */
  matchCount: z.number().int(),
  /** ISO 8601, null before the first match. */
  lastMatchAt: z.string().nullable(),
  /** The monitor's webhook (docs/webhooks.md), or null. */
  webhook: monitorWebhookSchema.nullable(),
  /**
   * Set while this clock hour's matches reached MONITOR_MATCHES_PER_HOUR: `stored` were kept,
   * `dropped` more were not stored, and matching is stored again from `resumesAt` (ISO 8601).
   */
  cappedThisHour: z
    .object({ stored: z.number().int(), dropped: z.number().int(), resumesAt: z.string() })
    .nullable(),
});
export type Monitor = z.infer<typeof monitorSchema>;

const query = z
  .string({ error: 'write a query, e.g. pglite or "open source"' })
  .trim()
  .min(1, 'write a query, e.g. pglite or "open source"')
  .max(MONITOR_QUERY_MAX_LENGTH, `must be at most ${MONITOR_QUERY_MAX_LENGTH} characters`)
  .refine(isPlainText, PLAIN_TEXT_MESSAGE);

const name = z
  .string()
  .trim()
  .max(MONITOR_NAME_MAX_LENGTH, `must be at most ${MONITOR_NAME_MAX_LENGTH} characters`)
  .refine(isPlainText, PLAIN_TEXT_MESSAGE);

export const createMonitorBodySchema = z.strictObject({
  query,
  name: name.optional(),
  sources: monitorSourcesSchema.optional(),
  paused: z.boolean().optional(),
  emailMuted: z.boolean().optional(),
  relevanceThreshold: z
    .number({ error: 'must be a number from 0 to 1, or null for off' })
    .min(0, 'must be a number from 0 to 1, or null for off')
    .max(1, 'must be a number from 0 to 1, or null for off')
    .nullable()
    .optional(),
  delivery: monitorDeliverySchema.optional(),
  spikeAlerts: z.boolean().optional(),
});
export type CreateMonitorBody = z.infer<typeof createMonitorBodySchema>;

export const updateMonitorBodySchema = createMonitorBodySchema
  .partial()
  .extend({
    webhook: setWebhookBodySchema.optional(),
    /** Lifts a thread mute (one of `mutedThreads`); lifting one that is not there changes nothing. */
    unmuteThread: z
      .strictObject({ source: z.enum(SOURCE_NAMES), threadId: z.string().min(1).max(300) })
      .optional(),
  })
  .refine((body) => Object.keys(body).length > 0, 'change at least one field');
export type UpdateMonitorBody = z.infer<typeof updateMonitorBodySchema>;

/** `error.details` of a 400 for a query that does not parse: where (from 0) and why. */
export const querySyntaxDetailsSchema = z.object({
  position: z.number().int(),
  message: z.string(),
});
export type QuerySyntaxDetails = z.infer<typeof querySyntaxDetailsSchema>;

export const previewMonitorBodySchema = z.strictObject({
  query,
  sources: monitorSourcesSchema.optional(),
});
export type PreviewMonitorBody = z.infer<typeof previewMonitorBodySchema>;

/**
 * What a query would have found in the stored items of the last 7 days. `items` are the newest
 * (at most 20), shaped as matches (`id` is the item's, `monitorId` empty, `read` false); `perDay`
 * is the expected alerts a day, from the `coveredHours` of items stored from the chosen sites
 * (up to 7 days; 0 when none). `estimated` is true when the preview's budget ran out before the
 * week did (so many items hold the query's words): `count` is then the matches of the newest
 * `basis.hoursExamined` hours (`basis.itemsExamined` candidates), scaled to `coveredHours`.
 */
export const monitorPreviewSchema = z.object({
  count: z.number().int(),
  perDay: z.number(),
  coveredHours: z.number().nonnegative(),
  estimated: z.boolean(),
  /** What an estimate rests on; null when every candidate of the week was verified. */
  basis: z
    .object({
      itemsExamined: z.number().int(),
      hoursExamined: z.number().nonnegative(),
      /** Which budget ran out: candidates verified, or time. */
      stoppedBy: z.enum(['items', 'time']),
    })
    .nullable(),
  items: z.array(matchSchema),
});
export type MonitorPreview = z.infer<typeof monitorPreviewSchema>;

/**
 * GET /api/monitors/{id}/coach: what the monitor's rated matches say. `scores` are the rated
 * matches' relevance and rating (the monitor form counts what a threshold would keep and drop);
 * `suggestions` are query changes, each back-tested on the stored matches with the matcher.
 */
export const monitorCoachSchema = z.object({
  rated: z.object({ relevant: z.number().int(), irrelevant: z.number().int() }),
  scores: z.array(
    z.object({ relevance: z.number().nullable(), rating: z.enum(['relevant', 'irrelevant']) }),
  ),
  suggestions: z.array(
    z.object({
      /** What the not relevant matches share: a word, a community or an author. */
      kind: z.enum(['word', 'community', 'author']),
      /** The term added to the query, e.g. `-subreddit:playrust`. */
      change: z.string(),
      /** The whole query with the change: what applying it saves. */
      query: z.string(),
      /** Of the stored matches: those rated not relevant, and relevant, the new query leaves out. */
      removesIrrelevant: z.number().int(),
      removesRelevant: z.number().int(),
      /** Unrated stored matches it leaves out. */
      removesUnrated: z.number().int(),
      /** In words: "removes 41 of your 45 not relevant, 0 of 30 relevant". */
      summary: z.string(),
    }),
  ),
});
export type MonitorCoach = z.infer<typeof monitorCoachSchema>;
