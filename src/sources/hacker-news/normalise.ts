import { z } from 'zod';
import {
  describeIssue,
  isoFromSeconds,
  type NormaliseResult,
  skipped,
} from '../normalised-item.ts';
import { htmlToText } from '../text/html-to-text.ts';

/** A Firebase `/v0/item/<id>.json` answer; only the fields Earshot reads. */
const hackerNewsItemSchema = z.object({
  id: z.number().int(),
  type: z.enum(['story', 'comment', 'job', 'poll', 'pollopt']).optional(),
  by: z.string().optional(),
  time: z.number().optional(),
  title: z.string().optional(),
  text: z.string().optional(),
  url: z.string().optional(),
  parent: z.number().int().optional(),
  deleted: z.boolean().optional(),
  dead: z.boolean().optional(),
});

export const hackerNewsPermalink = (id: number | string): string =>
  `https://news.ycombinator.com/item?id=${id}`;

/** A Hacker News item to a normalised item; deleted and dead items and poll options are skipped. */
export function normaliseHackerNewsItem(raw: unknown): NormaliseResult {
  const parsed = hackerNewsItemSchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const item = parsed.data;
  if (item.deleted === true || item.dead === true) {
    return skipped('deleted', `item ${item.id} is ${item.deleted === true ? 'deleted' : 'dead'}`);
  }
  if (item.type === undefined || item.type === 'pollopt') {
    return skipped('unsupported-kind', `item ${item.id} has type ${item.type ?? 'none'}`);
  }
  if (item.time === undefined) return skipped('invalid', `item ${item.id} has no time`);
  const isComment = item.type === 'comment';
  return {
    status: 'item',
    item: {
      source: 'hackernews',
      externalId: String(item.id),
      kind: isComment ? 'comment' : 'post',
      title: isComment ? null : (item.title ?? ''),
      body: htmlToText(item.text ?? ''),
      url: isComment || !item.url ? null : item.url,
      permalink: hackerNewsPermalink(item.id),
      author: item.by ?? null,
      community: null,
      parentExternalId: item.parent === undefined ? null : String(item.parent),
      threadTitle: null,
      createdAt: isoFromSeconds(item.time),
    },
  };
}
