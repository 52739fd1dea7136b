import { z } from 'zod';
import { describeIssue, type NormaliseResult, skipped } from '../normalised-item.ts';
import { htmlToText } from '../text/html-to-text.ts';

// Older answers give users as objects, newer ones as names.
const userSchema = z.union([
  z.string(),
  z.object({ username: z.string() }).transform((user) => user.username),
]);

const storySchema = z.object({
  short_id: z.string(),
  short_id_url: z.string(),
  comments_url: z.string().optional(),
  created_at: z.string(),
  title: z.string(),
  url: z.string().default(''),
  description: z.string().default(''),
  description_plain: z.string().optional(),
  submitter_user: userSchema,
  comments: z.array(z.unknown()).optional(),
});

const commentSchema = z.object({
  short_id: z.string(),
  short_id_url: z.string(),
  url: z.string().optional(),
  created_at: z.string(),
  is_deleted: z.boolean().default(false),
  comment: z.string().default(''),
  comment_plain: z.string().optional(),
  parent_comment: z.string().nullable().default(null),
  commenting_user: userSchema,
});

const plain = (text: string | undefined, html: string): string =>
  text === undefined ? htmlToText(html) : text.replace(/\r\n?/gu, '\n').trim();

/** A Lobsters story (`/hottest.json`, `/t/<tag>.json` entries, or `/s/<id>.json`). */
export function normaliseLobstersStory(raw: unknown): NormaliseResult {
  const parsed = storySchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const story = parsed.data;
  return {
    status: 'item',
    item: {
      source: 'lobsters',
      externalId: story.short_id,
      kind: 'post',
      title: story.title,
      body: plain(story.description_plain, story.description),
      url: story.url === '' ? null : story.url,
      permalink: story.comments_url ?? story.short_id_url,
      author: story.submitter_user,
      community: null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: new Date(story.created_at).toISOString(),
    },
  };
}

/** A comment of a Lobsters story; a top-level comment's parent is the story. */
export function normaliseLobstersComment(
  raw: unknown,
  story: { readonly id: string; readonly title: string | null } | null,
): NormaliseResult {
  const parsed = commentSchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const comment = parsed.data;
  if (comment.is_deleted) return skipped('deleted', `comment ${comment.short_id} is deleted`);
  return {
    status: 'item',
    item: {
      source: 'lobsters',
      externalId: comment.short_id,
      kind: 'comment',
      title: null,
      body: plain(comment.comment_plain, comment.comment),
      url: null,
      permalink: comment.url ?? comment.short_id_url,
      author: comment.commenting_user,
      community: null,
      parentExternalId: comment.parent_comment ?? story?.id ?? null,
      threadTitle: story?.title ?? null,
      threadId: story?.id ?? null,
      createdAt: new Date(comment.created_at).toISOString(),
    },
  };
}

/** A Lobsters answer: a list of stories, or one story with its comments. */
export function normaliseLobstersResponse(json: unknown): NormaliseResult[] {
  const stories = Array.isArray(json) ? json : [json];
  return stories.flatMap((raw) => {
    const story = normaliseLobstersStory(raw);
    const comments = storySchema.safeParse(raw);
    if (story.status !== 'item' || !comments.success) return [story];
    const thread = { id: story.item.externalId, title: story.item.title };
    return [
      story,
      ...(comments.data.comments ?? []).map((comment) => normaliseLobstersComment(comment, thread)),
    ];
  });
}
