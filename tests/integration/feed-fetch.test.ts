import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { publicOnlyLookup } from '../../src/platform/public-address.ts';
import { discoverFeed } from '../../src/sources/feeds/discover-feed.ts';
import { NotAFeedError } from '../../src/sources/feeds/feed-entry.ts';
import { FeedFetchError, fetchFeed } from '../../src/sources/feeds/fetch-feed.ts';
import { type FeedServer, startFeedServer } from '../support/feed-server.ts';

// Fetching and finding feeds over real HTTP, from a local server of the recorded documents.
describe('fetching a feed', () => {
  let server: FeedServer;
  let other: FeedServer;
  // The tests' server is on 127.0.0.2; only it counts as "public" here, so 127.0.0.1 is refused
  // exactly as a private address would be.
  const isAllowed = (address: string) => address === '127.0.0.2';
  const options = {
    timeoutMs: 2000,
    maxBytes: 1024 * 1024,
    addressRule: { lookup: publicOnlyLookup({ isAllowed }), isAllowed },
  };
  beforeAll(async () => {
    server = await startFeedServer('127.0.0.2');
    other = await startFeedServer('127.0.0.1');
  });
  afterAll(async () => {
    await server.close();
    await other.close();
  });

  test('a conditional GET: the second fetch with the ETag is 304 and reads no body', async () => {
    const url = server.url('/recorded/atom-onefoottsunami-2015-09-08.xml');
    const first = await fetchFeed(url, options);
    if (first.status !== 'ok') throw new Error('expected a body');
    expect(first.text).toContain('<feed');
    expect(first.etag).toMatch(/^"/u);
    const second = await fetchFeed(url, { ...options, etag: first.etag });
    expect(second.status).toBe('not-modified');
  });

  test('a redirect to a private address is refused on the resolved address', async () => {
    server.set('/to-private', {
      status: 302,
      headers: { location: other.url('/recorded/jsonfeed-inessential-2017-06-02.json') },
    });
    await expect(fetchFeed(server.url('/to-private'), options)).rejects.toThrow(
      'this address is not allowed',
    );
    expect(other.hits('/recorded/jsonfeed-inessential-2017-06-02.json')).toBe(0);
    // A name that resolves to the loopback address is refused too.
    await expect(
      fetchFeed(other.url('/x').replace('127.0.0.1', 'localhost'), options),
    ).rejects.toThrow('this address is not allowed');
    // FEEDS_ALLOW_PRIVATE lifts the rule.
    const allowed = await fetchFeed(server.url('/to-private'), { ...options, addressRule: null });
    expect(allowed.status).toBe('ok');
  });

  test('only http(s)', async () => {
    await expect(fetchFeed('file:///etc/passwd', options)).rejects.toThrow(
      'only http and https addresses',
    );
    server.set('/to-file', { status: 301, headers: { location: 'file:///etc/passwd' } });
    await expect(fetchFeed(server.url('/to-file'), options)).rejects.toThrow(
      'only http and https addresses',
    );
  });

  test('an answer over the size limit stops there, compressed or not', async () => {
    const big = `<!doctype html><html><body>${'x'.repeat(5 * 1024 * 1024)}</body></html>`;
    server.set('/big.html', { type: 'text/html', body: big });
    await expect(fetchFeed(server.url('/big.html'), options)).rejects.toThrow(
      'the answer is larger than 1 MB',
    );
    server.set('/big.gz', {
      type: 'text/html',
      body: gzipSync(big),
      headers: { 'content-encoding': 'gzip' },
    });
    await expect(fetchFeed(server.url('/big.gz'), options)).rejects.toThrow(
      'the answer is larger than 1 MB',
    );
  });

  test('status codes in words, Retry-After kept', async () => {
    await expect(fetchFeed(server.url('/missing'), options)).rejects.toThrow('404 Not Found');
    server.set('/busy', { status: 429, headers: { 'retry-after': '120' } });
    const error = await fetchFeed(server.url('/busy'), options).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FeedFetchError);
    expect((error as FeedFetchError).message).toBe('429 Too Many Requests');
    expect((error as FeedFetchError).retryAfterMs).toBe(120_000);
  });

  test('invalid UTF-8 is read with replacement characters; a declared charset is honoured', async () => {
    server.set('/bad-utf8.xml', {
      type: 'application/rss+xml; charset=utf-8',
      body: Buffer.concat([
        Buffer.from('<rss version="2.0"><channel><title>Caf'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('</title><item><guid>1</guid><title>x</title></item></channel></rss>'),
      ]),
    });
    const found = await discoverFeed(server.url('/bad-utf8.xml'), options);
    expect(found.name).toBe('Caf\uFFFD(');
    server.set('/latin1.xml', {
      type: 'application/xml',
      body: Buffer.concat([
        Buffer.from(
          '<?xml version="1.0" encoding="ISO-8859-1"?><rss version="2.0"><channel><title>Caf',
        ),
        Buffer.from([0xe9]),
        Buffer.from('</title></channel></rss>'),
      ]),
    });
    expect((await discoverFeed(server.url('/latin1.xml'), options)).name).toBe('Café');
  });

  test('finding the feed: a feed, a page that links one, a Discourse forum, or not a feed', async () => {
    const feed = await discoverFeed(server.url('/recorded/rss-macworld-2017-11-28.xml'), options);
    expect(feed).toMatchObject({ kind: 'rss', name: 'Macworld' });
    expect(feed.entries).toHaveLength(30);

    server.set('/blog/', {
      type: 'text/html',
      body: '<!doctype html><html><head><title>Blog</title><link rel="alternate" type="application/atom+xml" href="../recorded/atom-onefoottsunami-2015-09-08.xml"></head><body>hello</body></html>',
    });
    const linked = await discoverFeed(server.url('/blog/'), options);
    expect(linked).toMatchObject({
      kind: 'atom',
      name: 'One Foot Tsunami',
      url: server.url('/recorded/atom-onefoottsunami-2015-09-08.xml'),
    });

    server.set('/forum/posts.json', {
      type: 'application/json',
      body: readRecorded('discourse-posts-latest.json'),
    });
    server.set('/forum/about.json', {
      type: 'application/json',
      body: JSON.stringify({ about: { title: 'The Forum' } }),
    });
    const forum = await discoverFeed(server.url('/forum/posts.json'), options);
    expect(forum).toMatchObject({
      kind: 'discourse',
      name: 'The Forum',
      url: server.url('/forum'),
    });
    expect(forum.entries).toHaveLength(4);

    server.set('/page', {
      type: 'text/html',
      body: '<!doctype html><html><body>no feed</body></html>',
    });
    await expect(discoverFeed(server.url('/page'), options)).rejects.toThrow(NotAFeedError);
    await expect(discoverFeed(server.url('/page'), options)).rejects.toThrow(
      'not a feed: the page links no feed',
    );
  });

  test('a server that does not answer in time', async () => {
    const slow = await startSlowServer();
    try {
      await expect(
        fetchFeed(slow.url, { ...options, timeoutMs: 300, addressRule: null }),
      ).rejects.toThrow('no answer in time');
    } finally {
      await slow.close();
    }
  });
});

function readRecorded(file: string): string {
  return readFileSync(path.join(import.meta.dirname, '..', 'fixtures', 'recorded', file), 'utf8');
}

async function startSlowServer() {
  const server = createServer(() => {
    // Never answers.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
