import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normaliseHackerNewsItem } from './hacker-news/normalise.ts';
import { normaliseLobstersResponse } from './lobsters/normalise.ts';
import {
  type NormalisedItem,
  type NormaliseResult,
  normalisedItemSchema,
} from './normalised-item.ts';
import {
  listRedditThings,
  normaliseRedditListing,
  normaliseRedditThing,
} from './reddit/normalise.ts';
import { htmlToText } from './text/html-to-text.ts';
import { markdownToText } from './text/markdown-to-text.ts';

const recorded = join(import.meta.dirname, '..', '..', 'tests', 'fixtures', 'recorded');
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(recorded, file), 'utf8'));
const hnItems = readFileSync(join(recorded, 'hn-items.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as unknown);

const keepItems = (results: readonly NormaliseResult[]): NormalisedItem[] =>
  results.flatMap((result) => (result.status === 'item' ? [result.item] : []));

const byId = (items: NormalisedItem[], externalId: string) =>
  items.find((i) => i.externalId === externalId);

describe('htmlToText', () => {
  it('reduces Hacker News HTML to text with entities decoded', () => {
    expect(
      htmlToText(
        '<i>or</i> HN: it&#x27;s &quot;fine&quot; &gt; 2<p>Next <a href="https://x.io" rel="nofollow">x.io</a><p><pre><code>  a &amp;&amp; b</code></pre>',
      ),
    ).toBe('or HN: it\'s "fine" > 2\n\nNext x.io\n\n  a && b');
  });

  it('decodes every entity of HTML and keeps unknown ones', () => {
    expect(htmlToText('&#39;&#x1F680;&eacute;&nbsp;&hearts;&Ccaron;&frac12;&bogus;')).toBe(
      "'🚀é\u00a0♥Č½&bogus;",
    );
  });

  it('reads a stray < as text, skips scripts, and makes list items lines', () => {
    expect(htmlToText('a < b and c<script>x()</script><ul><li>one<li>two</ul>')).toBe(
      'a < b and c\n\n- one\n- two',
    );
  });
});

describe('markdownToText', () => {
  it.each([
    [
      '**bold** and *it* and _under_ but snake_case_name',
      'bold and it and under but snake_case_name',
    ],
    [
      '[the docs](https://example.com/a) and [https://x.io](https://x.io)',
      'the docs (https://example.com/a) and https://x.io',
    ],
    ['# Title\n> quoted\n* item\n\n---\nend', 'Title\n\nquoted\n\n- item\n\nend'],
    ['1. one\n2. two\n\n| a | b |\n|---|---|\n| 1 | 2 |', '1. one\n2. two\n\na b\n1 2'],
    [
      '![](https://i.io/x.png) ![cat](https://i.io/c.png) <https://auto.io>',
      'https://i.io/x.png cat (https://i.io/c.png) https://auto.io',
    ],
    ['~~gone~~ `code` ^(small) >!spoiler!< \\*not\\*', 'gone code small spoiler *not*'],
    ['```\nlet x = 1;\n```', 'let x = 1;'],
    ['AT&amp;T &#x200B;', 'AT&T \u200b'],
  ])('%j', (markdown, text) => {
    expect(markdownToText(markdown)).toBe(text);
  });
});

describe('normaliseHackerNewsItem', () => {
  const results = hnItems.map(normaliseHackerNewsItem);
  const items = keepItems(results);

  it('normalises every story, job, poll and live comment of the recording', () => {
    expect(items.filter((i) => i.kind === 'post')).toHaveLength(66);
    expect(items.filter((i) => i.kind === 'comment')).toHaveLength(3);
    expect(
      results
        .filter((r) => r.status === 'skipped')
        .map((r) => r.status === 'skipped' && r.reason)
        .sort(),
    ).toEqual(['deleted', 'unsupported-kind']);
    for (const item of items) expect(normalisedItemSchema.parse(item)).toEqual(item);
  });

  it('maps a link story', () => {
    expect(byId(items, '8863')).toEqual({
      source: 'hackernews',
      externalId: '8863',
      kind: 'post',
      title: 'My YC app: Dropbox - Throw away your USB drive',
      body: '',
      url: 'http://www.getdropbox.com/u/2/screencast.html',
      permalink: 'https://news.ycombinator.com/item?id=8863',
      author: 'dhouston',
      community: null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: '2007-04-04T19:16:40.000Z', // time 1175714200
    });
  });

  it('maps a comment with its parent and text', () => {
    expect(byId(items, '2921983')).toMatchObject({
      kind: 'comment',
      title: null,
      url: null,
      parentExternalId: '2921506',
      // Firebase names only the parent: the pipeline finds the thread (storeItems).
      threadTitle: null,
      body: expect.stringContaining('compliments.\n\nTell you what'),
    });
  });

  it('skips a malformed item with a reason', () => {
    expect(normaliseHackerNewsItem({ id: 'x' })).toMatchObject({
      status: 'skipped',
      reason: 'invalid',
    });
  });
});

describe('normaliseRedditListing', () => {
  it('reads a listing of posts, a self-post url is not a link', () => {
    const items = keepItems(
      normaliseRedditListing(readJson('reddit-listing-front-hot-2016-03-01.json')),
    );
    expect(items).toHaveLength(100);
    const selfPost = items.find((i) => i.permalink.includes('/r/Jokes/comments/48dgl4/'));
    expect(selfPost).toMatchObject({ kind: 'post', url: null, community: 'Jokes' });
    const link = items.find((i) => i.url !== null)!;
    expect(link.url).toMatch(/^https?:\/\//u);
  });

  it('reads a comment stream and builds permalinks the old answers lack', () => {
    const items = keepItems(
      normaliseRedditListing(readJson('reddit-listing-r-all-comments-2016-12-22-p01.json')),
    );
    expect(items[0]).toMatchObject({
      source: 'reddit',
      externalId: 't1_dbhn11d',
      kind: 'comment',
      title: null,
      permalink: 'https://www.reddit.com/r/coins/comments/5jffj1/_/dbhn11d/',
      author: 'Mametaro',
      community: 'coins',
      parentExternalId: 't3_5jffj1',
      threadTitle: "What's this?",
      createdAt: '2016-12-22T02:17:20.000Z',
    });
    expect(items[0]!.body).toContain('In case you want to know more: http://www.mint.go.jp/');
  });

  it('flattens the nested thread shape and skips the "more" stubs', () => {
    const json = readJson('reddit-thread-n49rw-2016-03-22.json');
    const results = normaliseRedditListing(json);
    const items = keepItems(results);
    expect(items.filter((i) => i.kind === 'post')).toHaveLength(1);
    expect(items.filter((i) => i.kind === 'comment').length).toBeGreaterThan(400);
    expect(results.some((r) => r.status === 'skipped' && r.reason === 'unsupported-kind')).toBe(
      true,
    );
    expect(listRedditThings(json).length).toBe(results.length);
  });

  it('reads the current Reddit shape', () => {
    const items = keepItems(
      normaliseRedditListing(readJson('reddit-listing-r-popular-hot-2026-04-13.json')),
    );
    expect(items).toHaveLength(100);
    expect(items[0]).toMatchObject({
      externalId: 't3_1skjxta',
      community: 'MMA',
      url: 'https://streamable.com/ql7tuy',
    });
  });

  it('skips deleted comments and unknown kinds with a reason', () => {
    const deleted = {
      kind: 't1',
      data: {
        name: 't1_x',
        id: 'x',
        body: '[deleted]',
        author: '[deleted]',
        subreddit: 'a',
        link_id: 't3_y',
        parent_id: 't3_y',
        created_utc: 1,
      },
    };
    expect(normaliseRedditThing(deleted)).toMatchObject({ status: 'skipped', reason: 'deleted' });
    expect(normaliseRedditThing({ kind: 't5', data: {} })).toMatchObject({
      status: 'skipped',
      reason: 'unsupported-kind',
    });
  });
});

describe('normaliseLobstersResponse', () => {
  it('reads a list of stories with user names as strings or objects', () => {
    for (const file of ['lobsters-hottest-2025-02-13.json', 'lobsters-t-meta-2023-02-04.json']) {
      const items = keepItems(normaliseLobstersResponse(readJson(file)));
      expect(items).toHaveLength(25);
      for (const item of items) expect(typeof item.author).toBe('string');
    }
    const [first] = keepItems(
      normaliseLobstersResponse(readJson('lobsters-hottest-2025-02-13.json')),
    );
    expect(first).toEqual({
      source: 'lobsters',
      externalId: 'f9zeee',
      kind: 'post',
      title: "why I built a hyper-personalized seach engine that isn't very good",
      body: '',
      url: 'https://search.technomancy.us/why',
      permalink: 'https://lobste.rs/s/f9zeee/why_i_built_hyper_personalized_seach',
      author: 'technomancy',
      community: null,
      parentExternalId: null,
      threadTitle: null,
      createdAt: '2025-02-13T19:30:54.000Z',
    });
  });

  it('reads a story with its comments and their parents', () => {
    const items = keepItems(
      normaliseLobstersResponse(readJson('lobsters-story-tdfoqh-2022-07-22.json')),
    );
    expect(items).toHaveLength(11);
    expect(items[0]).toMatchObject({
      kind: 'post',
      url: null,
      body: expect.stringContaining('There are often cases'),
    });
    expect(byId(items, 'ncdsfc')).toMatchObject({
      kind: 'comment',
      parentExternalId: 'tdfoqh',
      threadTitle: "Ranking comments by sum of replies' scores",
      author: 'dpercy',
    });
    expect(byId(items, 'pcvbcd')).toMatchObject({
      parentExternalId: 'm3wyu5',
      threadTitle: "Ranking comments by sum of replies' scores",
    });
    expect(byId(items, 'm3wyu5')).toMatchObject({
      author: 'friendlysock',
      permalink: 'https://lobste.rs/s/tdfoqh/ranking_comments_by_sum_replies_scores#c_m3wyu5',
    });
  });
});
