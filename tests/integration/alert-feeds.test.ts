import { parseAtomFeed, parseJsonFeed, parseRssFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CreatedAlertFeed } from '../../src/shared/alert-feeds.ts';
import { createItem, createMatch, createMonitor } from '../support/factories.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// The alert feeds as a feed reader sees them: fetched without signing in, parsed back by
// feedsmith's parsers, field by field, in RSS 2.0, Atom 1.0 and JSON Feed 1.1.
describe('alert feeds', () => {
  let app: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    app = await startTestApp();
    const user = await app.signedInUser();
    token = user.token;
    userId = user.sub;
  });
  afterAll(() => app.close());

  async function makeLink(monitorId: string | null, as = token) {
    const response = await app.api('/api/alert-feeds', {
      token: as,
      method: 'POST',
      body: { monitorId },
    });
    expect(response.status).toBe(200);
    return (await response.json()) as CreatedAlertFeed;
  }

  test('a monitor’s feed lists its matches with every field, in all three formats', async () => {
    const db = app.database.db;
    const monitor = await createMonitor(db, { userId, name: 'Postgres & <friends>' });
    const other = await createMonitor(db, { userId });
    const post = await createItem(db, {
      title: 'Why <b>Postgres</b> & "SQLite" matter ]]>',
      author: 'ada',
      createdAt: new Date('2026-11-20T10:00:00.000Z'),
    });
    const snippet = 'We moved <script>alert(1)</script> to Postgres & never looked back';
    const start = snippet.indexOf('Postgres');
    await createMatch(db, {
      monitor,
      item: post,
      snippet,
      highlights: [[start, start + 'Postgres'.length]],
      matchedAt: new Date('2026-11-20T10:05:00.000Z'),
    });
    const comment = await createItem(db, {
      source: 'reddit',
      kind: 'comment',
      title: null,
      threadTitle: 'Ask: which database?',
      community: 'r/programming',
      body: 'postgres, always',
      author: 'grace',
      permalink: 'https://www.reddit.com/r/programming/comments/abc/x/def/',
      createdAt: new Date('2026-11-21T09:00:00.000Z'),
    });
    await createMatch(db, {
      monitor,
      item: comment,
      highlights: [[0, 8]],
      matchedAt: new Date('2026-11-21T09:01:00.000Z'),
    });
    await createMatch(db, { monitor: other, item: await createItem(db, { title: 'Not here' }) });

    const made = await makeLink(monitor.id);
    expect(made.monitorId).toBe(monitor.id);
    const feedToken = new URL(made.urls.rss).pathname.split('/')[2] ?? '';
    // 32 base64url characters: 192 random bits. Only its SHA-256 is stored.
    expect(feedToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(made.urls).toEqual({
      rss: `${app.config.publicUrl}/feeds/${feedToken}/rss.xml`,
      atom: `${app.config.publicUrl}/feeds/${feedToken}/atom.xml`,
      json: `${app.config.publicUrl}/feeds/${feedToken}/feed.json`,
    });
    const stored = await db.query.alertFeeds.findFirst({
      where: (feeds, { eq }) => eq(feeds.id, made.id),
    });
    expect(stored?.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(feedToken);

    const postHtml =
      '<p>We moved &lt;script&gt;alert(1)&lt;/script&gt; to <mark>Postgres</mark> &amp; never looked back</p><p>Hacker News</p>';
    const commentHtml = '<p><mark>postgres</mark>, always</p><p>Reddit · r/programming</p>';

    // Without any Authorization header: the token is the proof.
    const rssAnswer = await fetch(made.urls.rss);
    expect(rssAnswer.status).toBe(200);
    expect(rssAnswer.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    const rss = parseRssFeed(await rssAnswer.text());
    expect(rss.title).toBe('Earshot: Postgres & <friends>');
    expect(rss.link).toBe(`${app.config.publicUrl}/dashboard/alerts`);
    expect(rss.atom?.links?.[0]?.href).toBe(made.urls.rss);
    expect(rss.items).toEqual([
      {
        title: 'on: Ask: which database?',
        link: comment.permalink,
        description: commentHtml,
        guid: { value: comment.permalink, isPermaLink: true },
        pubDate: 'Sat, 21 Nov 2026 09:00:00 GMT',
        categories: [{ name: 'Reddit', domain: 'earshot:site' }],
        dc: { creators: ['grace'] },
      },
      {
        title: 'Why <b>Postgres</b> & "SQLite" matter ]]>',
        link: post.permalink,
        description: postHtml,
        guid: { value: post.permalink, isPermaLink: true },
        pubDate: 'Fri, 20 Nov 2026 10:00:00 GMT',
        categories: [{ name: 'Hacker News', domain: 'earshot:site' }],
        dc: { creators: ['ada'] },
      },
    ]);

    const atomAnswer = await fetch(made.urls.atom);
    expect(atomAnswer.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const atom = parseAtomFeed(await atomAnswer.text());
    expect(atom.title).toEqual({ type: 'text', value: 'Earshot: Postgres & <friends>' });
    expect(atom.id).toBe(made.urls.atom);
    expect(atom.updated).toBe('2026-11-21T09:01:00.000Z');
    expect(atom.entries).toEqual([
      {
        id: comment.permalink,
        title: { type: 'text', value: 'on: Ask: which database?' },
        links: [{ href: comment.permalink, rel: 'alternate', type: 'text/html' }],
        content: { type: 'html', value: commentHtml },
        authors: [{ name: 'grace' }],
        published: '2026-11-21T09:00:00.000Z',
        updated: '2026-11-21T09:01:00.000Z',
        categories: [{ term: 'reddit', label: 'Reddit' }],
      },
      {
        id: post.permalink,
        title: { type: 'text', value: 'Why <b>Postgres</b> & "SQLite" matter ]]>' },
        links: [{ href: post.permalink, rel: 'alternate', type: 'text/html' }],
        content: { type: 'html', value: postHtml },
        authors: [{ name: 'ada' }],
        published: '2026-11-20T10:00:00.000Z',
        updated: '2026-11-20T10:05:00.000Z',
        categories: [{ term: 'hackernews', label: 'Hacker News' }],
      },
    ]);

    const jsonAnswer = await fetch(made.urls.json);
    expect(jsonAnswer.headers.get('content-type')).toBe('application/feed+json; charset=utf-8');
    const json = parseJsonFeed(await jsonAnswer.json());
    expect(json.title).toBe('Earshot: Postgres & <friends>');
    expect(json.feed_url).toBe(made.urls.json);
    expect(json.items).toEqual([
      {
        id: comment.permalink,
        url: comment.permalink,
        title: 'on: Ask: which database?',
        content_html: commentHtml,
        content_text: 'postgres, always\n\nReddit · r/programming',
        authors: [{ name: 'grace' }],
        date_published: '2026-11-21T09:00:00.000Z',
        date_modified: '2026-11-21T09:01:00.000Z',
        tags: ['Reddit'],
      },
      {
        id: post.permalink,
        url: post.permalink,
        title: 'Why <b>Postgres</b> & "SQLite" matter ]]>',
        content_html: postHtml,
        content_text: `${snippet}\n\nHacker News`,
        authors: [{ name: 'ada' }],
        date_published: '2026-11-20T10:00:00.000Z',
        date_modified: '2026-11-20T10:05:00.000Z',
        tags: ['Hacker News'],
      },
    ]);
  });

  test('the feed of all matches lists the latest 50 of every monitor, none of another user', async () => {
    const db = app.database.db;
    const fresh = await app.signedInUser();
    const first = await createMonitor(db, { userId: fresh.sub });
    const second = await createMonitor(db, { userId: fresh.sub });
    const titles: string[] = [];
    for (let i = 0; i < 55; i++) {
      const title = `Item number ${i}`;
      titles.push(title);
      await createMatch(db, {
        monitor: i % 2 ? first : second,
        item: await createItem(db, { title }),
      });
    }
    await createMatch(db, {
      monitor: await createMonitor(db, { userId }),
      item: await createItem(db, { title: 'Someone else’s' }),
    });
    const made = await makeLink(null, fresh.token);
    expect(made.monitorId).toBeNull();
    const feed = parseJsonFeed(await (await fetch(made.urls.json)).json());
    expect(feed.title).toBe('Earshot: all alerts');
    expect(feed.items?.map((item) => item.title)).toEqual(titles.slice(5).reverse());
  });

  test('ETag and If-None-Match: 304 while nothing changed, 200 once a match arrives', async () => {
    const db = app.database.db;
    const monitor = await createMonitor(db, { userId });
    await createMatch(db, { monitor, item: await createItem(db) });
    const made = await makeLink(monitor.id);
    for (const url of Object.values(made.urls)) {
      const first = await fetch(url);
      const etag = first.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
      const again = await fetch(url, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
    }
    // A reader that asks with HEAD gets the headers alone.
    const head = await fetch(made.urls.rss, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/rss+xml; charset=utf-8');
    expect(await head.text()).toBe('');
    const before = (await fetch(made.urls.rss)).headers.get('etag') ?? '';
    await createMatch(db, { monitor, item: await createItem(db) });
    const after = await fetch(made.urls.rss, { headers: { 'If-None-Match': before } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
  });

  test('reset: the old link answers 404 at once, the new one works; turning off makes it 404', async () => {
    const monitor = await createMonitor(app.database.db, { userId });
    const old = await makeLink(monitor.id);
    expect((await fetch(old.urls.atom)).status).toBe(200);
    const renewed = await makeLink(monitor.id);
    expect(renewed.id).toBe(old.id);
    expect(renewed.urls.atom).not.toBe(old.urls.atom);
    const gone = await fetch(old.urls.atom);
    expect(gone.status).toBe(404);
    expect(await apiErrorOf(gone)).toMatchObject({ code: 'NOT_FOUND' });
    expect((await fetch(renewed.urls.atom)).status).toBe(200);

    const listed = (await (await app.api('/api/alert-feeds', { token })).json()) as Array<{
      id: string;
      monitorId: string | null;
    }>;
    expect(listed.filter((feed) => feed.monitorId === monitor.id)).toEqual([
      { id: old.id, monitorId: monitor.id, createdAt: renewed.createdAt },
    ]);
    const off = await app.api(`/api/alert-feeds/${old.id}`, { token, method: 'DELETE' });
    expect(off.status).toBe(204);
    expect((await fetch(renewed.urls.rss)).status).toBe(404);
    // A token of the right shape nobody has, and a file that is no format.
    expect((await fetch(`${app.url}/feeds/${'A'.repeat(32)}/rss.xml`)).status).toBe(404);
    expect((await fetch(renewed.urls.rss.replace('rss.xml', 'index.html'))).status).toBe(404);
  });

  test('another user’s monitor or feed reads as not found', async () => {
    const stranger = await app.signedInUser();
    const monitor = await createMonitor(app.database.db, { userId });
    const made = await makeLink(monitor.id);
    const theirs = await app.api('/api/alert-feeds', {
      token: stranger.token,
      method: 'POST',
      body: { monitorId: monitor.id },
    });
    expect(theirs.status).toBe(404);
    const remove = await app.api(`/api/alert-feeds/${made.id}`, {
      token: stranger.token,
      method: 'DELETE',
    });
    expect(remove.status).toBe(404);
    expect((await fetch(made.urls.rss)).status).toBe(200);
  });

  // Last: it uses up this address's misses for the minute.
  test('an address asking for unknown feeds gets 429 after 60 a minute, valid links still work', async () => {
    const monitor = await createMonitor(app.database.db, { userId });
    const made = await makeLink(monitor.id);
    const statuses: number[] = [];
    for (let i = 0; i < 61 && !statuses.includes(429); i++) {
      statuses.push((await fetch(`${app.url}/feeds/${'B'.repeat(32)}/rss.xml`)).status);
    }
    expect(statuses.at(-1)).toBe(429);
    expect(new Set(statuses.slice(0, -1))).toEqual(new Set([404]));
    expect((await fetch(made.urls.json)).status).toBe(200);
  });
});
