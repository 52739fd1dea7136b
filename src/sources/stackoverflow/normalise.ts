import { z } from 'zod';
import {
  describeIssue,
  isoFromSeconds,
  type NormalisedItem,
  type NormaliseResult,
  skipped,
} from '../normalised-item.ts';
import { htmlToText } from '../text/html-to-text.ts';

// Stack Exchange API 2.3 with `filter=withbody` (https://api.stackexchange.com/docs/types/question,
// /answer, /comment). No answer of the site was recorded: these shapes follow the published
// reference (decision 0041; the examples in tests/fixtures/reference/). The API's default filters
// are "safe": titles and names are HTML-encoded (`&quot;`), bodies are HTML.

/** The three methods read, each a list in creation order. */
export const STACKEXCHANGE_METHODS = ['questions', 'answers', 'comments'] as const;
export type StackExchangeMethod = (typeof STACKEXCHANGE_METHODS)[number];

const ownerSchema = z
  .object({ display_name: z.string().optional(), user_type: z.string().optional() })
  .passthrough();
const seconds = z.number().int().nonnegative();

const questionSchema = z
  .object({
    question_id: z.number().int().positive(),
    title: z.string(),
    body: z.string().optional(),
    tags: z.array(z.string()).optional(),
    owner: ownerSchema.optional(),
    link: z.string().optional(),
    creation_date: seconds,
  })
  .passthrough();

const answerSchema = z
  .object({
    answer_id: z.number().int().positive(),
    question_id: z.number().int().positive(),
    body: z.string().optional(),
    owner: ownerSchema.optional(),
    tags: z.array(z.string()).optional(),
    title: z.string().optional(),
    link: z.string().optional(),
    creation_date: seconds,
  })
  .passthrough();

const commentSchema = z
  .object({
    comment_id: z.number().int().positive(),
    post_id: z.number().int().positive(),
    body: z.string().optional(),
    owner: ownerSchema.optional(),
    link: z.string().optional(),
    creation_date: seconds,
  })
  .passthrough();

/** The common wrapper every method answers with (https://api.stackexchange.com/docs/wrapper). */
export const wrapperSchema = z
  .object({
    items: z.array(z.unknown()).optional(),
    has_more: z.boolean().optional(),
    quota_max: z.number().int().optional(),
    quota_remaining: z.number().int().optional(),
    backoff: z.number().int().nonnegative().optional(),
    error_id: z.number().int().optional(),
    error_name: z.string().optional(),
    error_message: z.string().optional(),
  })
  .passthrough();
export type StackExchangeWrapper = z.infer<typeof wrapperSchema>;

/** The fields of a record that the cursor needs: its id and creation second. */
export function recordKey(
  method: StackExchangeMethod,
  raw: unknown,
): { readonly id: number; readonly at: number } | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const record = raw as Record<string, unknown>;
  const id = record[ID_FIELD[method]];
  const at = record.creation_date;
  return typeof id === 'number' && typeof at === 'number' ? { id, at } : null;
}

const ID_FIELD: Record<StackExchangeMethod, string> = {
  questions: 'question_id',
  answers: 'answer_id',
  comments: 'comment_id',
};

/** The site's web address, from its API name (`stackoverflow`, `superuser`, `math`, …). */
export function siteUrl(site: string): string {
  if (/^[a-z0-9.-]+\.[a-z]{2,}$/u.test(site)) return `https://${site}`;
  const own = OWN_DOMAINS[site];
  return own ? `https://${own}` : `https://${site}.stackexchange.com`;
}
const OWN_DOMAINS: Record<string, string> = {
  stackoverflow: 'stackoverflow.com',
  superuser: 'superuser.com',
  serverfault: 'serverfault.com',
  askubuntu: 'askubuntu.com',
  mathoverflow: 'mathoverflow.net',
  'mathoverflow.net': 'mathoverflow.net',
  stackapps: 'stackapps.com',
};

/**
 * A post's id as Earshot stores it. Questions and answers share one id space on a site (a
 * comment's `post_id` names either), so both are `<site>/<post id>`; the default site is
 * named too, so two sites never collide.
 */
export const postExternalId = (site: string, postId: number) => `${site}/${postId}`;
export const commentExternalId = (site: string, commentId: number) =>
  `${site}/comment/${commentId}`;

/** A title or name of a safe filter (HTML-encoded text): entities decoded, spaces tidied. */
const plain = (text: string) => htmlToText(text).replace(/\s+/gu, ' ').trim();

const authorOf = (owner: z.infer<typeof ownerSchema> | undefined): string | null =>
  owner?.display_name ? plain(owner.display_name) || null : null;

/** One record of `/questions`, `/answers` or `/comments` (filter `withbody`) as an item. */
export function normaliseStackExchangeRecord(
  site: string,
  method: StackExchangeMethod,
  raw: unknown,
): NormaliseResult {
  const base = { source: 'stackoverflow' as const, url: null };
  const home = siteUrl(site);
  if (method === 'questions') {
    const parsed = questionSchema.safeParse(raw);
    if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
    const question = parsed.data;
    const item: NormalisedItem = {
      ...base,
      externalId: postExternalId(site, question.question_id),
      kind: 'post',
      title: plain(question.title),
      body: htmlToText(question.body ?? ''),
      permalink: question.link ?? `${home}/q/${question.question_id}`,
      author: authorOf(question.owner),
      community: question.tags?.[0] ?? null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: isoFromSeconds(question.creation_date),
    };
    return { status: 'item', item };
  }
  if (method === 'answers') {
    const parsed = answerSchema.safeParse(raw);
    if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
    const answer = parsed.data;
    const item: NormalisedItem = {
      ...base,
      externalId: postExternalId(site, answer.answer_id),
      kind: 'comment',
      title: null,
      body: htmlToText(answer.body ?? ''),
      permalink: answer.link ?? `${home}/a/${answer.answer_id}`,
      author: authorOf(answer.owner),
      community: answer.tags?.[0] ?? null,
      parentExternalId: postExternalId(site, answer.question_id),
      // `withbody` leaves the question's title out; the pipeline takes it from the stored question.
      threadTitle: answer.title === undefined ? null : plain(answer.title),
      threadId: postExternalId(site, answer.question_id),
      createdAt: isoFromSeconds(answer.creation_date),
    };
    return { status: 'item', item };
  }
  const parsed = commentSchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const comment = parsed.data;
  const item: NormalisedItem = {
    ...base,
    externalId: commentExternalId(site, comment.comment_id),
    kind: 'comment',
    title: null,
    // A comment's body is one paragraph of inline HTML (code, links, emphasis).
    body: htmlToText(comment.body ?? ''),
    permalink: comment.link ?? `${home}/posts/comments/${comment.comment_id}`,
    author: authorOf(comment.owner),
    community: null,
    parentExternalId: postExternalId(site, comment.post_id),
    threadTitle: null,
    createdAt: isoFromSeconds(comment.creation_date),
  };
  return { status: 'item', item };
}
