import { z } from 'zod';
import {
  describeIssue,
  isoFromSeconds,
  type NormaliseResult,
  skipped,
} from '../normalised-item.ts';
import { markdownToText } from '../text/markdown-to-text.ts';

const REDDIT = 'https://www.reddit.com';

const thingSchema = z.object({ kind: z.string(), data: z.unknown() });

const postSchema = z.object({
  name: z.string(),
  id: z.string(),
  title: z.string(),
  selftext: z.string().default(''),
  url: z.string().nullable().optional(),
  is_self: z.boolean().default(false),
  permalink: z.string(),
  author: z.string(),
  subreddit: z.string(),
  created_utc: z.number(),
});

const commentSchema = z.object({
  name: z.string(),
  id: z.string(),
  body: z.string(),
  author: z.string(),
  subreddit: z.string(),
  link_id: z.string(),
  parent_id: z.string(),
  link_title: z.string().optional(),
  permalink: z.string().nullable().optional(),
  created_utc: z.number(),
});

const GONE = new Set(['[deleted]', '[removed]']);

// Made once: zod compiles a schema on its first parse, which is most of a parse's cost.
const listingSchema = z.object({ children: z.array(z.unknown()) });
const repliesSchema = z.object({ replies: z.unknown() });
const thingNameSchema = z.object({ data: z.object({ name: z.string() }) });

/** A thing's id, its fullname (`t3_…`, `t1_…`) read in base 36; null when it has no name. */
export function redditThingId(thing: unknown): number | null {
  const name = thingNameSchema.safeParse(thing);
  return name.success ? Number.parseInt(name.data.data.name.replace(/^t[13]_/u, ''), 36) : null;
}

/**
 * The things of a Reddit answer, in order: a Listing, the `[post Listing, comment Listing]`
 * pair of `/comments/<id>`, with nested `replies` flattened after their parent.
 */
export function listRedditThings(json: unknown): unknown[] {
  const things: unknown[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    const thing = thingSchema.safeParse(node);
    if (!thing.success) return;
    const data = thing.data.data;
    if (thing.data.kind === 'Listing') {
      const listing = listingSchema.safeParse(data);
      if (listing.success) visit(listing.data.children);
      return;
    }
    things.push(node);
    const replies = repliesSchema.safeParse(data);
    if (replies.success) visit(replies.data.replies);
  };
  visit(json);
  return things;
}

/** A Reddit post (t3) or comment (t1); `more` stubs and other kinds are skipped. */
export function normaliseRedditThing(raw: unknown): NormaliseResult {
  const thing = thingSchema.safeParse(raw);
  if (!thing.success) return skipped('invalid', describeIssue(thing.error));
  if (thing.data.kind === 't3') return normalisePost(thing.data.data);
  if (thing.data.kind === 't1') return normaliseComment(thing.data.data);
  return skipped('unsupported-kind', `Reddit thing of kind ${thing.data.kind}`);
}

/** Every thing of a Reddit answer, normalised (see `listRedditThings`). */
export function normaliseRedditListing(json: unknown): NormaliseResult[] {
  return listRedditThings(json).map(normaliseRedditThing);
}

function normalisePost(data: unknown): NormaliseResult {
  const parsed = postSchema.safeParse(data);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const post = parsed.data;
  const permalink = REDDIT + post.permalink;
  // A self-post's `url` is its own permalink, not a link.
  const url = post.is_self || !post.url || post.url === permalink ? null : post.url;
  return {
    status: 'item',
    item: {
      source: 'reddit',
      externalId: post.name,
      kind: 'post',
      title: post.title,
      body: markdownToText(post.selftext),
      url,
      permalink,
      author: GONE.has(post.author) ? null : post.author,
      community: post.subreddit,
      parentExternalId: null,
      threadTitle: null,
      createdAt: isoFromSeconds(post.created_utc),
    },
  };
}

function normaliseComment(data: unknown): NormaliseResult {
  const parsed = commentSchema.safeParse(data);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const comment = parsed.data;
  if (GONE.has(comment.body) && GONE.has(comment.author)) {
    return skipped('deleted', `comment ${comment.name} is ${comment.body}`);
  }
  // Older answers carry no permalink; Reddit resolves any slug in this shape.
  const permalink =
    comment.permalink != null
      ? REDDIT + comment.permalink
      : `${REDDIT}/r/${comment.subreddit}/comments/${comment.link_id.replace(/^t3_/u, '')}/_/${comment.id}/`;
  return {
    status: 'item',
    item: {
      source: 'reddit',
      externalId: comment.name,
      kind: 'comment',
      title: null,
      body: markdownToText(comment.body),
      url: null,
      permalink,
      author: GONE.has(comment.author) ? null : comment.author,
      community: comment.subreddit,
      parentExternalId: comment.parent_id,
      threadTitle: comment.link_title ?? null,
      threadId: comment.link_id,
      createdAt: isoFromSeconds(comment.created_utc),
    },
  };
}
