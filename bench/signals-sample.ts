// Draws the items that bench/signals-labels/labels.tsv labels, the same every run: the texts
// are printed for a person to read and label; the labels are typed by hand (README there).
// `npx node bench/signals-sample.ts > bench/signals-labels/sample.jsonl`

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { htmlToText } from '../src/sources/text/html-to-text.ts';

export type SampleItem = {
  readonly id: string;
  readonly source: string;
  readonly kind: 'post' | 'comment';
  readonly title: string | null;
  readonly body: string;
  readonly url: string | null;
};

const root = fileURLToPath(new URL('..', import.meta.url));

/** A seeded shuffle (mulberry32), so the sample is the same on every machine. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  let state = seed;
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The recorded items (tests/fixtures/items) and the Bluesky posts of the recorded Jetstream. */
export function recordedItems(): SampleItem[] {
  const items = readFileSync(`${root}tests/fixtures/items/items.jsonl`, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as SampleItem & { body: string | null })
    .map(({ id, source, kind, title, body, url }) => ({
      id,
      source,
      kind,
      title,
      body: body ?? '',
      url,
    }));
  const posts = readFileSync(
    `${root}tests/fixtures/recorded/bluesky-jetstream-v1-2026-07-04.jsonl`,
    'utf8',
  )
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((event) => event.commit?.collection === 'app.bsky.feed.post' && event.commit.record)
    .map(
      (event): SampleItem => ({
        id: `bluesky:${event.did}/${event.commit.rkey}`,
        source: 'bluesky',
        kind: event.commit.record.reply ? 'comment' : 'post',
        title: null,
        body: String(event.commit.record.text ?? ''),
        url: null,
      }),
    )
    .filter((item) => item.body.trim().length > 0);
  const toots = [
    'mastodon-timelines-public-mastodonsocial-2016-10-20.json',
    'mastodon-timelines-tag-mastodon-2017-04-21.json',
  ].flatMap((file) =>
    (
      JSON.parse(readFileSync(`${root}tests/fixtures/recorded/${file}`, 'utf8')) as {
        id: string;
        content: string;
        in_reply_to_id: string | null;
      }[]
    ).map(
      (status): SampleItem => ({
        id: `mastodon:${status.id}`,
        source: 'mastodon',
        kind: status.in_reply_to_id ? 'comment' : 'post',
        title: null,
        body: htmlToText(status.content),
        url: null,
      }),
    ),
  );
  return [...items, ...posts, ...toots];
}

/**
 * The sample: from each site, a fixed number of items drawn at random (Reddit posts and
 * comments apart), without empty texts; the posts of Hacker News's "Show", "Ask" and job lists
 * are in the recorded items too and come in by chance like the others.
 */
export function drawSample(): SampleItem[] {
  const all = recordedItems().filter((item) => `${item.title ?? ''}${item.body}`.trim() !== '');
  // Appended in this order, so labels made before a group was added keep their places.
  const quota: [string, number][] = [
    ['reddit/post', 45],
    ['reddit/comment', 45],
    ['hackernews/post', 30],
    ['lobsters/post', 25],
    ['lobsters/comment', 5],
    ['bluesky/post', 40],
    ['bluesky/comment', 20],
    ['mastodon/post', 40],
    ['mastodon/comment', 40],
  ];
  const drawn = quota.flatMap(([group, count], n) =>
    shuffled(
      all.filter((item) => `${item.source}/${item.kind}` === group),
      24 + n,
    ).slice(0, count),
  );
  // The rarer intents hardly occur at random: 60 more items that hold one of these words (a
  // list apart from the rules' own, so the rules are not graded on what they chose).
  const taken = new Set(drawn.map((item) => item.id));
  const rare = shuffled(
    all.filter(
      (item) =>
        !taken.has(item.id) &&
        item.source !== 'bluesky' &&
        item.source !== 'mastodon' &&
        RARE_WORDS.test(`${item.title ?? ''} ${item.body.slice(0, 1500)}`),
    ),
    99,
  ).slice(0, 60);
  return [...drawn, ...rare];
}

const RARE_WORDS =
  /\b(?:hir(?:e|ing)|jobs?|recommend\w*|suggest\w*|alternatives?|vs|versus|better|love|thanks?|awesome|broken|bug|crash\w*|annoying|released?|launch\w*|announc\w*|built|made)\b/iu;

if (import.meta.main) {
  for (const item of drawSample()) {
    process.stdout.write(`${JSON.stringify({ ...item, body: item.body.slice(0, 1500) })}\n`);
  }
}
