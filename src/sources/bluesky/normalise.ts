import { z } from 'zod';
import { describeIssue, type NormaliseResult, skipped } from '../normalised-item.ts';

// Jetstream v1 messages (https://github.com/bluesky-social/jetstream), as recorded in 2026
// (tests/fixtures/recorded/bluesky-jetstream-v1-*): `{did, time_us, kind, commit?}`, where a
// commit carries the `app.bsky.feed.post` record (https://docs.bsky.app/docs/advanced-guides/post-richtext).

export const POST_COLLECTION = 'app.bsky.feed.post';

const facetSchema = z
  .object({
    index: z.object({ byteStart: z.number().int(), byteEnd: z.number().int() }).passthrough(),
    features: z.array(z.object({ $type: z.string(), uri: z.unknown() }).passthrough()),
  })
  .passthrough();

const postSchema = z
  .object({
    text: z.string(),
    createdAt: z.string().nullish(),
    facets: z.array(z.unknown()).nullish(),
    reply: z
      .object({ parent: z.object({ uri: z.string().min(1) }).passthrough() })
      .passthrough()
      .nullish(),
    embed: z
      .object({ external: z.object({ uri: z.string() }).passthrough().nullish() })
      .passthrough()
      .nullish(),
  })
  .passthrough();

const eventSchema = z
  .object({
    did: z.string().regex(/^did:[a-z]+:\S+$/u, 'not a DID'),
    time_us: z.number().int().nonnegative(),
    kind: z.string(),
    commit: z
      .object({
        operation: z.string(),
        collection: z.string(),
        rkey: z.string().regex(/^[A-Za-z0-9.\-_:~]{1,512}$/u, 'not a record key'),
        record: z.unknown().optional(),
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();

/** The `time_us` of a Jetstream message (the cursor), or null when it has none. */
export function jetstreamTimeUs(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const time = (raw as { time_us?: unknown }).time_us;
  return typeof time === 'number' && Number.isSafeInteger(time) && time >= 0 ? time : null;
}

/** A post's AT URI: what Earshot stores as its external id. */
export function postUri(did: string, rkey: string): string {
  return `at://${did}/${POST_COLLECTION}/${rkey}`;
}

const isHttp = (uri: unknown): uri is string =>
  typeof uri === 'string' && /^https?:\/\/\S+$/iu.test(uri);

/**
 * The text with each link facet's shortened text (`www.youtube.com/watch?v=V5lD...`) replaced by
 * the link it stands for, and the first link. Facets index UTF-8 bytes; a facet whose range is
 * out of bounds or overlaps the one before is left as written.
 */
export function expandLinks(
  text: string,
  facets: readonly unknown[],
): { text: string; firstLink: string | null } {
  const bytes = Buffer.from(text, 'utf8');
  const links: { start: number; end: number; uri: string }[] = [];
  for (const raw of facets) {
    const facet = facetSchema.safeParse(raw);
    if (!facet.success) continue;
    const link = facet.data.features.find(
      (feature) => feature.$type === 'app.bsky.richtext.facet#link' && isHttp(feature.uri),
    );
    const { byteStart: start, byteEnd: end } = facet.data.index;
    if (link && start >= 0 && start <= end && end <= bytes.length) {
      links.push({ start, end, uri: link.uri as string });
    }
  }
  links.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const link of links) {
    if (link.start < at) continue;
    parts.push(bytes.subarray(at, link.start).toString('utf8'), link.uri);
    at = link.end;
  }
  parts.push(bytes.subarray(at).toString('utf8'));
  return { text: parts.join(''), firstLink: links[0]?.uri ?? null };
}

/**
 * One Jetstream message to an item: only the creation of an `app.bsky.feed.post` record is one
 * (deletes, updates, likes, identity and account events are skipped). A reply is a comment whose
 * parent is the post it answers; Bluesky posts have no title. The author is the DID (handles are
 * not in the stream). `langs` is not kept: items have no language.
 */
export function normaliseJetstreamEvent(raw: unknown): NormaliseResult {
  const parsed = eventSchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const event = parsed.data;
  const commit = event.commit;
  if (event.kind !== 'commit' || !commit) return skipped('unsupported-kind', event.kind);
  if (commit.collection !== POST_COLLECTION) return skipped('unsupported-kind', commit.collection);
  if (commit.operation === 'delete') {
    return skipped('deleted', `delete of ${postUri(event.did, commit.rkey)}`);
  }
  if (commit.operation !== 'create') {
    return skipped('unsupported-kind', `${commit.operation} of a post`);
  }
  const post = postSchema.safeParse(commit.record);
  if (!post.success) return skipped('invalid', `record.${describeIssue(post.error)}`);
  const record = post.data;
  const written = record.createdAt ? Date.parse(record.createdAt) : Number.NaN;
  const createdAt = Number.isNaN(written) ? Math.floor(event.time_us / 1000) : written;
  if (!Number.isFinite(new Date(createdAt).getTime())) {
    return skipped('invalid', `time_us out of range (${event.time_us})`);
  }
  const { text, firstLink } = expandLinks(record.text, record.facets ?? []);
  const external = record.embed?.external?.uri;
  const parent = record.reply?.parent.uri ?? null;
  return {
    status: 'item',
    item: {
      source: 'bluesky',
      externalId: postUri(event.did, commit.rkey),
      kind: parent === null ? 'post' : 'comment',
      title: null,
      body: text,
      url: firstLink ?? (isHttp(external) ? external : null),
      permalink: `https://bsky.app/profile/${event.did}/post/${commit.rkey}`,
      author: event.did,
      community: null,
      parentExternalId: parent,
      threadTitle: null,
      createdAt: new Date(createdAt).toISOString(),
    },
  };
}
