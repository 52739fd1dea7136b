import { z } from 'zod';
import { SOURCE_NAMES } from './sources.ts';

/** Wire contracts of /api/matches and of the `match` server-sent event. */

export const matchSchema = z.object({
  /** Opaque; a decimal string. */
  id: z.string(),
  monitorId: z.string(),
  source: z.enum(SOURCE_NAMES),
  kind: z.enum(['post', 'comment']),
  title: z.string().nullable(),
  /** About 300 characters of the item around its first hit, as plain text. */
  snippet: z.string(),
  /** `[start, end)` UTF-16 offsets of the hits in `snippet`. */
  highlights: z.array(z.tuple([z.number().int(), z.number().int()])),
  /** The link of a link post; null for self-posts and comments. */
  url: z.string().nullable(),
  /** The item on its site. */
  permalink: z.string(),
  author: z.string().nullable(),
  /** The subreddit; null elsewhere. */
  community: z.string().nullable(),
  /** ISO 8601. */
  itemCreatedAt: z.string(),
  matchedAt: z.string(),
  read: z.boolean(),
});
export type Match = z.infer<typeof matchSchema>;

export const matchPageSchema = z.object({
  items: z.array(matchSchema),
  /** Pass as `cursor` for the next (older) page; null at the end. */
  nextCursor: z.string().nullable(),
});
export type MatchPage = z.infer<typeof matchPageSchema>;
