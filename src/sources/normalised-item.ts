import { z } from 'zod';
import { SOURCE_NAMES } from '../shared/sources.ts';

/**
 * One post or comment, whatever site it came from (docs/product.md, "Sources"); the connector adds
 * `fetchedAt`.
 */
export const normalisedItemSchema = z.object({
  source: z.enum(SOURCE_NAMES),
  externalId: z.string().min(1),
  kind: z.enum(['post', 'comment']),
  /** Posts only. */
  title: z.string().nullable(),
  /** Plain text: HTML and Markdown reduced, entities decoded; '' when there is none. */
  body: z.string(),
  /** The link of a link post; null for self-posts and comments. */
  url: z.string().nullable(),
  /** The item on its site. */
  permalink: z.string(),
  author: z.string().nullable(),
  /** The subreddit; null on Hacker News and Lobsters. */
  community: z.string().nullable(),
  parentExternalId: z.string().nullable(),
  /**
   * A comment's thread: the title of the post it belongs to, when the site's answer names it
   * (Reddit's `link_title`, the Lobsters story read with its comments); else null, and the
   * pipeline takes it from the stored parent (`storeItems`). Null for posts.
   */
  threadTitle: z.string().nullable(),
  /**
   * A comment's thread: the external id of its post, when the site's answer names it (Reddit's
   * `link_id`, the Lobsters story); else the pipeline takes it from the stored parent. Posts are
   * their own thread (`storeItems`).
   */
  threadId: z.string().nullable().optional(),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /** The feed a user added that brought it (the `feeds` site only). */
  feedId: z.number().int().optional(),
});
export type NormalisedItem = z.infer<typeof normalisedItemSchema>;

/** Why a raw record was dropped: gone at the site, a kind Earshot does not read, a shape it cannot read, never appeared. */
export type SkipReason = 'deleted' | 'unsupported-kind' | 'invalid' | 'missing';

/** What normalising one raw record gives: an item, or a typed reason to drop it. */
export type NormaliseResult =
  | { readonly status: 'item'; readonly item: NormalisedItem }
  | { readonly status: 'skipped'; readonly reason: SkipReason; readonly detail: string };

export const skipped = (reason: SkipReason, detail: string): NormaliseResult => ({
  status: 'skipped',
  reason,
  detail,
});

/** The zod problem in one line, for a skip's detail. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  return `${issue.path.join('.') || 'value'}: ${issue.message}`;
}

/** Seconds since the epoch (Reddit, Hacker News) to ISO 8601. */
export function isoFromSeconds(seconds: number): string {
  return new Date(seconds * 1000).toISOString();
}
