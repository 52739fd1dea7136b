import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { discourseRoot } from './discourse.ts';
import { entryIdentity, NotAFeedError, resolveLink } from './feed-entry.ts';
import { MAX_ENTRIES_PER_DOCUMENT, parseFeedDocument } from './parse-feed.ts';

const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const read = (file: string): string => readFileSync(path.join(RECORDED, file), 'utf8');
const parseRecorded = (file: string, address = 'https://feeds.example.net/feed') =>
  parseFeedDocument(read(file), address);

describe('recorded feeds', () => {
  test.each([
    ['rss-couchbase-blog-2016-12-06.xml', 'rss', 'CouchBase Blogs', 30],
    ['rss-daveverse-links-2025-10-29.xml', 'rss', 'links.daveverse.org', 25],
    ['rss-livemint-news-2019-05-29.xml', 'rss', 'Livemint - News', 25],
    ['rss-macworld-2017-11-28.xml', 'rss', 'Macworld', 30],
    ['rss-manton-2015-09-25.xml', 'rss', 'Manton Reece', 10],
    ['rss-monkeydom-2018-09-06.xml', 'rss', 'cocoa-dom', 13],
    ['rss-reddit-front-2015-11.xml', 'rss', 'reddit: the front page of the internet', 24],
    ['atom-onefoottsunami-2015-09-08.xml', 'atom', 'One Foot Tsunami', 25],
    ['atom-reddit-front-2016-01.xml', 'atom', 'reddit: the front page of the internet', 24],
    ['jsonfeed-inessential-2017-06-02.json', 'json', 'inessential.com', 20],
  ])(
    '%s: %s named "%s", %i entries, each dated, each its own identity, text without markup',
    (file, kind, title, count) => {
      const document = parseRecorded(file);
      expect(document.kind).toBe(kind);
      expect(document.title).toBe(title);
      expect(document.entries).toHaveLength(count);
      expect(new Set(document.entries.map((entry) => entry.externalId)).size).toBe(count);
      for (const entry of document.entries) {
        expect(entry.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/u);
        expect(entry.body).not.toMatch(/<\/?(?:p|a|div|br|img)\b/u);
        expect(entry.body).not.toMatch(/&(?:amp|lt|gt|quot|#\d+);/u);
        if (entry.permalink !== null) expect(entry.permalink).toMatch(/^https?:\/\//u);
      }
    },
  );

  test('RSS: the guid is the identity; CDATA-wrapped fields are read as text', () => {
    const [first] = parseRecorded('rss-livemint-news-2019-05-29.xml').entries;
    expect(first).toMatchObject({
      externalId: '1559104147038',
      title: 'PM Modi-Xi Jinping informal summit in Varanasi this October: Report',
      permalink:
        'https://www.livemint.com/news/india/pm-modi-xi-jinping-informal-summit-in-varanasi-this-october-report-1559104147038.html',
      author: 'Elizabeth Roche',
      createdAt: '2019-05-29T10:16:00.000Z',
    });
  });

  test('RSS without guids: the link is the identity', () => {
    const entries = parseRecorded('rss-macworld-2017-11-28.xml').entries;
    for (const entry of entries) expect(entry.externalId).toBe(entry.permalink);
    expect(entries[0]?.author).toBe('Christopher Null');
  });

  test('RSS items without a title (micro-posts) keep a null title and their text', () => {
    const entries = parseRecorded('rss-daveverse-links-2025-10-29.xml').entries;
    expect(entries.every((entry) => entry.title === null)).toBe(true);
    expect(entries[0]?.body).toBe(
      'ICE and CBP Agents Are Scanning Peoples’ Faces on the Street To Verify Citizenship.',
    );
    const manton = parseRecorded('rss-manton-2015-09-25.xml').entries;
    expect(manton.filter((entry) => entry.title === null)).toHaveLength(4);
    // An entity escaped inside the description is decoded once, as the reader sees it.
    expect(manton[0]?.body).toMatch(/^This week’s Core Intuition is out/u);
  });

  test('Atom: the alternate link, resolved against the entry`s xml:base; empty links ignored', () => {
    const entries = parseRecorded('atom-onefoottsunami-2015-09-08.xml').entries;
    expect(entries[0]).toMatchObject({
      externalId: 'http://onefoottsunami.com/?p=14863',
      title: 'Link: Pillow Fight Leaves 24 Concussed',
      author: 'Paul Kafasis',
      createdAt: '2015-09-08T14:21:41.000Z',
    });
    expect(entries.filter((entry) => entry.permalink === null)).toHaveLength(3);
    // Footnote anchors in the text do not become links of their own.
    expect(entries.every((entry) => !entry.permalink?.includes('#fn'))).toBe(true);
  });

  test('JSON Feed: id, url, content_html to text', () => {
    const [first] = parseRecorded('jsonfeed-inessential-2017-06-02.json').entries;
    expect(first).toMatchObject({
      externalId: 'http://inessential.com/2017/06/02/james_dempsey_and_the_breakpoints_benefi',
      title: 'James Dempsey and the Breakpoints Benefit App Camp for Girls',
      permalink: 'http://inessential.com/2017/06/02/james_dempsey_and_the_breakpoints_benefi',
    });
    expect(first?.body).toMatch(/^On Wednesday night I know where I’ll be\s—\splaying keyboard/u);
  });
});

describe('recorded Discourse answers', () => {
  const forum = 'https://forum.example.net';

  test('/posts.json: replies are comments of their topic, with its title as the thread`s', () => {
    const document = parseRecorded('discourse-posts-latest.json', `${forum}/posts.json`);
    expect(document.kind).toBe('discourse');
    expect(document.entries[0]).toEqual({
      externalId: 'p15',
      kind: 'comment',
      title: 'This is an uncategorized title',
      body: 'holla bullhonky.',
      permalink: `${forum}/t/this-is-an-uncategorized-title/11/2`,
      author: 'johndoe',
      parentExternalId: 't11',
      createdAt: '2020-01-25T02:10:07.971Z',
    });
  });

  test('/t/<id>.json: the first post is the topic itself, the others its comments', () => {
    const entries = parseRecorded(
      'discourse-topic-1448-manageiq-2016-05-25.json',
      'https://talk.manageiq.org/t/1448.json',
    ).entries;
    expect(entries.map((entry) => [entry.externalId, entry.kind, entry.parentExternalId])).toEqual([
      ['t1448', 'post', null],
      ['p4387', 'comment', 't1448'],
      ['p4393', 'comment', 't1448'],
      ['p4396', 'comment', 't1448'],
    ]);
    expect(entries.every((entry) => entry.title === 'IBM PowerVM support?')).toBe(true);
    expect(entries[0]?.permalink).toBe('https://talk.manageiq.org/t/ibm-powervm-support/1448');
    expect(entries[0]?.body).toMatch(/^Hi,\n\nI was wondering if there were any plans/u);
  });

  test('/latest.json: topics are posts; the sandbox`s three topics all say id 1, so they are one', () => {
    const entries = parseRecorded('discourse-latest.json', `${forum}/latest.json`).entries;
    expect(entries.map((entry) => entry.title)).toEqual([
      'Test topic #1',
      'Test topic #2',
      'Test topic #3',
    ]);
    expect(new Set(entries.map((entry) => entry.externalId))).toEqual(new Set(['t1']));
    expect(entries[0]?.body).toMatch(/experim…$/u);
  });

  test('the forum`s root from any of its answers', () => {
    expect(discourseRoot('https://meta.example.org/latest.json?page=2')).toBe(
      'https://meta.example.org',
    );
    expect(discourseRoot('https://example.org/forum/t/some-topic/12.json')).toBe(
      'https://example.org/forum',
    );
    expect(discourseRoot('https://example.org/forum/posts.json')).toBe('https://example.org/forum');
  });

  test('/about.json names the forum and has no entries', () => {
    const document = parseFeedDocument(
      JSON.stringify({ about: { title: 'ManageIQ Talk' } }),
      `${forum}/about.json`,
    );
    expect(document).toEqual({ kind: 'discourse', title: 'ManageIQ Talk', entries: [] });
  });
});

describe('what is not a feed', () => {
  test.each([
    ['an HTML page', '<!doctype html><html><head><title>x</title></head><body>hi</body></html>'],
    ['plain text', 'hello'],
    ['other JSON', '{"hello":"world"}'],
    ['broken JSON', '{"items": ['],
    ['an empty body', ''],
  ])('%s', (_what, body) => {
    expect(() => parseFeedDocument(body, 'https://example.org/')).toThrow(NotAFeedError);
  });

  test('an XML bomb is read without expanding its entities', () => {
    const entities = Array.from(
      { length: 9 },
      (_, level) => `<!ENTITY lol${level + 1} "${`&lol${level};`.repeat(10)}">`,
    ).join('');
    const bomb = `<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY lol0 "lol">${entities}]><rss version="2.0"><channel><title>&lol9;</title><item><title>&lol9;</title><link>https://example.org/a</link></item></channel></rss>`;
    const started = performance.now();
    let length = 0;
    try {
      const document = parseFeedDocument(bomb, 'https://example.org/');
      length = JSON.stringify(document).length;
    } catch (error) {
      expect(error).toBeInstanceOf(NotAFeedError);
    }
    expect(performance.now() - started).toBeLessThan(1000);
    expect(length).toBeLessThan(10_000);
  });

  test('10,000 entries: the first 1,000 are read, quickly', () => {
    const items = Array.from(
      { length: 10_000 },
      (_, index) =>
        `<item><title>Entry ${index}</title><link>https://example.org/${index}</link><description>&lt;p&gt;text ${index}&lt;/p&gt;</description></item>`,
    ).join('');
    const started = performance.now();
    const document = parseFeedDocument(
      `<rss version="2.0"><channel><title>Big</title>${items}</channel></rss>`,
      'https://example.org/',
    );
    expect(document.entries).toHaveLength(MAX_ENTRIES_PER_DOCUMENT);
    expect(document.entries[999]?.body).toBe('text 999');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  test('text that was invalid UTF-8 (decoded with replacement characters) still reads', () => {
    const bytes = Buffer.concat([
      Buffer.from('<rss version="2.0"><channel><title>Caf'),
      Buffer.from([0xe9, 0xff]),
      Buffer.from('</title><item><title>ok</title><guid>1</guid></item></channel></rss>'),
    ]);
    const document = parseFeedDocument(new TextDecoder().decode(bytes), 'https://example.org/');
    expect(document.title).toBe('Caf\uFFFD\uFFFD');
    expect(document.entries).toHaveLength(1);
  });
});

describe('identity, links and dates (properties)', () => {
  const word = fc.stringMatching(/^[A-Za-z0-9 ]{1,30}$/u);
  const date = fc
    .date({ min: new Date('1990-01-01'), max: new Date('2030-01-01'), noInvalidDate: true })
    .map((value) => value.toUTCString());
  const itemArb = fc.record({
    title: word,
    guid: fc.option(fc.stringMatching(/^[a-z0-9:-]{1,20}$/u), { nil: undefined }),
    link: fc.option(fc.stringMatching(/^\/[a-z0-9-]{0,10}(?:\/[a-z0-9-]{1,10})?$/u), {
      nil: undefined,
    }),
    date: fc.option(date, { nil: undefined }),
    body: word,
  });
  const rssOf = (items: readonly (typeof itemArb extends fc.Arbitrary<infer T> ? T : never)[]) =>
    `<rss version="2.0"><channel><title>T</title><link>https://site.example/</link>${items
      .map(
        (item) =>
          `<item><title>${item.title}</title>${item.guid ? `<guid>${item.guid}</guid>` : ''}${
            item.link ? `<link>${item.link}</link>` : ''
          }${item.date ? `<pubDate>${item.date}</pubDate>` : ''}<description>&lt;b&gt;${item.body}&lt;/b&gt;</description></item>`,
      )
      .join('')}</channel></rss>`;

  test('every item is an entry: guid, else link resolved against the site, else a hash of title and date', () => {
    fc.assert(
      fc.property(fc.array(itemArb, { maxLength: 8 }), (items) => {
        const entries = parseFeedDocument(rssOf(items), 'https://feeds.example/rss').entries;
        expect(entries).toHaveLength(items.length);
        entries.forEach((entry, index) => {
          const item = items[index];
          if (item === undefined) throw new Error('no item');
          const link = item.link ? new URL(item.link, 'https://site.example/').href : null;
          expect(entry.permalink).toBe(link);
          if (item.guid) expect(entry.externalId).toBe(item.guid);
          else if (link) expect(entry.externalId).toBe(link);
          else expect(entry.externalId).toMatch(/^h:[\w-]{22}$/u);
          expect(entry.body).toBe(item.body.trim());
          expect(entry.createdAt).toBe(item.date ? new Date(item.date).toISOString() : null);
        });
      }),
    );
  });

  test('editing an entry`s text keeps its identity', () => {
    fc.assert(
      fc.property(itemArb, word, (item, newBody) => {
        const before = parseFeedDocument(rssOf([item]), 'https://feeds.example/rss').entries[0];
        const after = parseFeedDocument(
          rssOf([{ ...item, body: newBody }]),
          'https://feeds.example/rss',
        ).entries[0];
        expect(after?.externalId).toBe(before?.externalId);
      }),
    );
  });

  test('entries without id or link differ when their title or date differs', () => {
    fc.assert(
      fc.property(word, word, fc.option(date), fc.option(date), (titleA, titleB, dateA, dateB) => {
        fc.pre(titleA !== titleB || dateA !== dateB);
        const a = entryIdentity({ id: null, link: null, title: titleA, date: dateA });
        const b = entryIdentity({ id: null, link: null, title: titleB, date: dateB });
        expect(a).not.toBe(b);
      }),
    );
  });

  test('a resolved link is http(s) or nothing', () => {
    fc.assert(
      fc.property(fc.string(), fc.webUrl(), (link, base) => {
        const resolved = resolveLink(link, base);
        if (resolved !== null) expect(resolved).toMatch(/^https?:\/\//u);
      }),
    );
    expect(resolveLink('javascript:alert(1)', 'https://example.org/')).toBeNull();
    expect(resolveLink('../a', 'https://example.org/b/c/')).toBe('https://example.org/b/a');
  });
});
