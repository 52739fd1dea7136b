import { z } from 'zod';
import { describeIssue, type NormaliseResult, skipped } from '../normalised-item.ts';
import { htmlToText } from '../text/html-to-text.ts';

// Mastodon's Status entity (https://docs.joinmastodon.org/entities/Status/), as recorded from
// 2016 (pre-1.0: no visibility, language, card) to 2022 (tests/fixtures/recorded/mastodon-*).
// Every field past `id`, `created_at`, `content` and `account` is optional, so the oldest shape
// reads as well as today's.

const accountSchema = z
  .object({
    acct: z.string().min(1),
    username: z.string().nullish(),
  })
  .passthrough();

const statusSchema = z
  .object({
    id: z.union([z.string().min(1), z.number().int()]).transform(String),
    created_at: z.string().min(1),
    in_reply_to_id: z
      .union([z.string(), z.number().int()])
      .nullish()
      .transform((id) => (id === null || id === undefined ? null : String(id))),
    reblog: z.unknown().nullish(),
    content: z.string(),
    spoiler_text: z.string().nullish(),
    visibility: z.string().nullish(),
    url: z.string().nullish(),
    uri: z.string().nullish(),
    account: accountSchema,
    card: z.object({ url: z.string().nullish() }).passthrough().nullish(),
    language: z.string().nullish(),
  })
  .passthrough();
export type MastodonStatus = z.infer<typeof statusSchema>;

/** A status read from its JSON, or why not. */
export function parseMastodonStatus(
  raw: unknown,
): { ok: true; status: MastodonStatus } | { ok: false; detail: string } {
  const parsed = statusSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, status: parsed.data }
    : { ok: false, detail: describeIssue(parsed.error) };
}

/**
 * A status's id as Earshot stores it: its `uri`, the ActivityPub id that names the post on every
 * instance (its `id` is each instance's own), else the instance's key and id.
 */
export function statusExternalId(instance: string, status: MastodonStatus): string {
  return status.uri || `${instanceKey(instance)}/${status.id}`;
}

/** `mastodon.social` for `https://mastodon.social`; host and path for an instance under a path. */
export function instanceKey(instance: string): string {
  const url = new URL(instance);
  return `${url.host}${url.pathname.replace(/\/+$/u, '')}`;
}

/**
 * The first link of the content that is neither a mention nor a hashtag: what a link post links.
 * Today's instances mark those with classes (`mention`, `hashtag`, `u-url`) or `rel="tag"`;
 * older and other servers (GNU social, Pleroma) write `@<a href=…>name</a>` or link the name.
 */
function firstLink(html: string): string | null {
  for (const match of html.matchAll(/(.?)<a\b([^>]*)>([\s\S]*?)<\/a\s*>/giu)) {
    const [, before = '', attributes = '', inner = ''] = match;
    if (/\bclass\s*=\s*"[^"]*\b(mention|hashtag|u-url)\b/iu.test(attributes)) continue;
    if (/\brel\s*=\s*"[^"]*\btag\b/iu.test(attributes)) continue;
    if (before === '@' || before === '#' || /^\s*[@#]/u.test(htmlToText(inner))) continue;
    const href = /\bhref\s*=\s*"(https?:[^"]+)"/iu.exec(attributes)?.[1];
    if (href) return htmlToText(href);
  }
  return null;
}

/**
 * One status of `instance`'s public timeline to an item. Boosts are skipped (the original is what
 * matters, and it is in the timeline of its own instance); replies are comments; the content
 * warning (`spoiler_text`) is a post's title.
 */
export function normaliseMastodonStatus(instance: string, raw: unknown): NormaliseResult {
  const parsed = parseMastodonStatus(raw);
  if (!parsed.ok) return skipped('invalid', parsed.detail);
  const status = parsed.status;
  if (status.reblog !== null && status.reblog !== undefined) {
    return skipped('unsupported-kind', `boost ${status.id}`);
  }
  if (status.visibility && status.visibility !== 'public' && status.visibility !== 'unlisted') {
    return skipped('unsupported-kind', `${status.visibility} status ${status.id}`);
  }
  const at = Date.parse(status.created_at);
  if (Number.isNaN(at)) return skipped('invalid', `created_at: not a date (${status.created_at})`);
  const permalink = status.url || status.uri;
  if (!permalink || !/^https?:\/\//iu.test(permalink)) {
    return skipped('invalid', `status ${status.id} has no web address`);
  }
  const reply = status.in_reply_to_id !== null;
  const spoiler = status.spoiler_text?.trim() ?? '';
  const text = htmlToText(status.content);
  return {
    status: 'item',
    item: {
      source: 'mastodon',
      externalId: statusExternalId(instance, status),
      kind: reply ? 'comment' : 'post',
      title: reply || spoiler === '' ? null : spoiler,
      // A reply has no title: its content warning leads its text instead.
      body: reply && spoiler !== '' ? `${spoiler}\n\n${text}` : text,
      url: status.card?.url || firstLink(status.content),
      permalink,
      author: status.account.acct,
      community: null,
      // `in_reply_to_id` is the instance's id of the parent, not its `uri`: unknown here.
      parentExternalId: null,
      createdAt: new Date(at).toISOString(),
    },
  };
}
