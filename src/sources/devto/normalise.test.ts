import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalisedItemSchema } from '../normalised-item.ts';
import { normaliseDevtoArticle, normaliseDevtoComments } from './normalise.ts';

const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const read = (file: string): unknown => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8'));

describe('DEV articles, as recorded', () => {
  test('the list of articles: tags to community, the description as text, the page as permalink', () => {
    const list = read('devto-articles-username-victoravelar-2019-09-03.json') as unknown[];
    const results = list.map(normaliseDevtoArticle);
    expect(results.map((result) => result.status)).toEqual(['item', 'item', 'item']);
    const first = results[0];
    if (first?.status !== 'item') throw new Error('not an item');
    expect(first.item).toEqual({
      source: 'devto',
      externalId: '164198',
      kind: 'post',
      title: 'A DEV.to API client is born',
      body: '',
      url: null,
      permalink: 'https://dev.to/victoravelar/a-dev-to-api-client-is-born-29pj',
      author: 'victoravelar',
      community: 'go',
      parentExternalId: null,
      threadTitle: null,
      createdAt: '2019-09-03T11:07:53.827Z',
    });
  });

  test('a single article: tag_list as a string, Markdown to text', () => {
    const result = normaliseDevtoArticle(read('devto-article-164198-2019-09-03.json'));
    if (result.status !== 'item') throw new Error(`skipped: ${result.detail}`);
    expect(result.item.community).toBe('go');
    expect(result.item.body).toMatch(/^Episode 2 - Project foundation\n/u);
    expect(result.item.body).not.toMatch(/^#+ Episode/mu);
    expect(result.item.createdAt).toBe('2019-09-03T11:07:53.000Z');
  });
});

// Forem's published API reference (API v1, "Comments"): no comment was recorded.
const reference = {
  type_of: 'comment',
  id_code: 'm35m',
  created_at: '2020-07-01T17:59:43Z',
  body_html: '<p>Nice <a href="https://example.com/x">post</a> &amp; thanks</p>\n',
  user: { name: 'Ada', username: 'ada', twitter_username: null, github_username: 'ada' },
  children: [
    {
      type_of: 'comment',
      id_code: 'm35n',
      created_at: '2020-07-01T18:10:00Z',
      body_html: '<p>Agreed</p>',
      user: { name: 'Bob', username: 'bob' },
      children: [],
    },
  ],
};
const article = { id: 7, url: 'https://dev.to/ada/a-post-1k2j', community: 'rust' };

describe('DEV comments, from the reference', () => {
  test('a thread: each comment once, with its parent, HTML to text, links kept', () => {
    const results = normaliseDevtoComments([reference], article);
    const items = results.flatMap((result) => (result.status === 'item' ? [result.item] : []));
    expect(items.map((item) => [item.externalId, item.parentExternalId])).toEqual([
      ['c_m35m', '7'],
      ['c_m35n', 'c_m35m'],
    ]);
    expect(items[0]?.body).toContain('Nice post');
    expect(items[0]?.body).toContain('& thanks');
    expect(items[0]?.permalink).toBe('https://dev.to/ada/comment/m35m');
    expect(items[0]?.community).toBe('rust');
  });

  test('a deleted comment (no user) is skipped, its replies kept', () => {
    const results = normaliseDevtoComments([{ ...reference, user: null }], article);
    expect(results.map((result) => result.status)).toEqual(['item', 'skipped']);
  });
});

const maybe = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.option(arbitrary, { nil: undefined, freq: 3 }) as fc.Arbitrary<T | undefined>;
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/u);
const date = fc
  .date({ min: new Date('2010-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
  .map((at) => at.toISOString());
const html = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 20 }),
      word.map((w) => `<p>${w}</p>`),
      word.map((w) => `<a href="https://example.com/${w}">${w}</a>`),
      fc.constantFrom('&amp;', '&lt;', '&#39;', '<br>', '<pre><code>x</code></pre>'),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));
// Raw HTML in Markdown is the author's text (the reducer runs with html: false), so free text
// leaves out "<": "<a" written by an author is kept as written, not a tag left behind.
const markdown = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 20 }).filter((s) => !s.includes('<')),
      word.map((w) => `# ${w}`),
      word.map((w) => `[${w}](https://example.com/${w})`),
      word.map((w) => `**${w}**`),
      fc.constantFrom('```', '> quote', '- item'),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join('\n'));
const articleShape = fc.record(
  {
    id: fc.integer({ min: 1, max: 2 ** 31 }),
    title: fc.string({ maxLength: 80 }),
    description: maybe(fc.string({ maxLength: 60 })),
    body_markdown: maybe(markdown),
    body_html: maybe(html),
    url: word.map((w) => `https://dev.to/someone/${w}`),
    canonical_url: maybe(
      fc.oneof(
        word.map((w) => `https://blog.example/${w}`),
        fc.string(),
      ),
    ),
    published_at: maybe(date),
    published_timestamp: date,
    tag_list: maybe(
      fc.oneof(
        fc.array(word, { maxLength: 4 }),
        fc.array(word).map((t) => t.join(', ')),
      ),
    ),
    user: maybe(fc.record({ username: word })),
  },
  { requiredKeys: ['id', 'title', 'url', 'published_timestamp'] },
);

describe('DEV normaliser properties', () => {
  test('every article shape gives a valid item: text without tags, a date, a lower-case tag', () => {
    fc.assert(
      fc.property(articleShape, (raw) => {
        const result = normaliseDevtoArticle(raw);
        if (result.status !== 'item') return false;
        const item = normalisedItemSchema.parse(result.item);
        expect(item.body).not.toMatch(/<\/?(p|a|br|pre|code)\b/u);
        expect(Number.isNaN(Date.parse(item.createdAt))).toBe(false);
        if (item.community !== null) expect(item.community).toBe(item.community.toLowerCase());
        // A link elsewhere is kept; a link to the article itself is not a link post.
        if (item.url !== null) expect(new URL(item.url).host).not.toBe('dev.to');
        return true;
      }),
    );
  });

  test('links in an article or comment keep their address, so example.com finds them', () => {
    fc.assert(
      fc.property(word, (w) => {
        const comment = normaliseDevtoComments(
          [
            {
              ...reference,
              body_html: `<p><a href="https://example.com/${w}">here</a></p>`,
              children: [],
            },
          ],
          article,
        )[0];
        const post = normaliseDevtoArticle({
          id: 1,
          title: 't',
          url: 'https://dev.to/a/b',
          published_at: '2024-01-01T00:00:00Z',
          body_markdown: `see [here](https://example.com/${w})`,
        });
        return (
          comment?.status === 'item' &&
          comment.item.body.includes(`example.com/${w}`) &&
          post.status === 'item' &&
          post.item.body.includes(`example.com/${w}`)
        );
      }),
    );
  });

  test('missing or wrong fields are skipped with a reason, never thrown', () => {
    fc.assert(
      fc.property(fc.anything(), (raw) => {
        const result = normaliseDevtoArticle(raw);
        const comments = normaliseDevtoComments([raw], article);
        return (
          (result.status === 'item' || result.detail !== '') &&
          comments.every((c) => c.status === 'item' || c.reason !== undefined)
        );
      }),
    );
  });

  test('every comment of a random tree once, each after its parent is known', () => {
    const tree: fc.Arbitrary<unknown[]> = fc.letrec((tie) => ({
      nodes: fc.array(tie('node'), { maxLength: 3 }),
      node: fc.record({
        id_code: fc.uuid().map((u) => u.slice(0, 8)),
        created_at: date,
        body_html: html,
        user: fc.option(fc.record({ username: word }), { nil: null }),
        children: fc.oneof({ depthSize: 'small' }, fc.constant([]), tie('nodes')),
      }),
    })).nodes as fc.Arbitrary<unknown[]>;
    fc.assert(
      fc.property(tree, (nodes) => {
        const ids = new Set<string>();
        const count = (list: unknown[]): number =>
          list.reduce<number>((sum, node) => {
            const n = node as { id_code: string; children: unknown[] };
            ids.add(n.id_code);
            return sum + 1 + count(n.children);
          }, 0);
        const total = count(nodes);
        const results = normaliseDevtoComments(nodes, article);
        if (results.length !== total) return false;
        const items = results.flatMap((r) => (r.status === 'item' ? [r.item] : []));
        const known = new Set(items.map((item) => item.externalId));
        return (
          known.size === items.length &&
          items.every(
            (item) =>
              item.parentExternalId === '7' || ids.has((item.parentExternalId ?? '').slice(2)),
          )
        );
      }),
    );
  });
});
