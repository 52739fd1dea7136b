import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { feeds } from '../../src/db/schema/feeds.ts';
import { feedListSchema, feedPreviewSchema, feedSchema } from '../../src/shared/feeds.ts';
import { type FeedServer, startFeedServer } from '../support/feed-server.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// /api/feeds over real HTTP, the feeds served by a local server of the recorded documents.
describe('/api/feeds', () => {
  let app: TestApp;
  let server: FeedServer;
  beforeAll(async () => {
    server = await startFeedServer();
    app = await startTestApp({ env: { FEEDS_ALLOW_PRIVATE: 'true', MAX_FEEDS_PER_USER: '3' } });
  });
  afterAll(async () => {
    await app.close();
    await server.close();
  });

  async function signedInUser() {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    await app.api('/api/user', { token: AccessToken, method: 'POST', body: {} });
    return AccessToken;
  }
  const add = (token: string, url: string) =>
    app.api('/api/feeds', { token, method: 'POST', body: { url } });

  test('preview, add, list, pause, remove', async () => {
    const token = await signedInUser();
    const url = server.url('/recorded/jsonfeed-inessential-2017-06-02.json');
    const previewAnswer = await app.api('/api/feeds/preview', {
      token,
      method: 'POST',
      body: { url },
    });
    expect(previewAnswer.status).toBe(200);
    const preview = feedPreviewSchema.parse(await previewAnswer.json());
    expect(preview).toMatchObject({ name: 'inessential.com', kind: 'json', url });
    expect(preview.items).toHaveLength(5);
    expect(preview.items[0]?.title).toBe(
      'James Dempsey and the Breakpoints Benefit App Camp for Girls',
    );

    const added = await add(token, url);
    expect(added.status).toBe(201);
    const feed = feedSchema.parse(await added.json());
    expect(feed).toMatchObject({ name: 'inessential.com', kind: 'json', url, paused: false });

    const list = feedListSchema.parse(await (await app.api('/api/feeds', { token })).json());
    expect(list.items.map((item) => item.id)).toEqual([feed.id]);

    const paused = await app.api(`/api/feeds/${feed.id}`, {
      token,
      method: 'PATCH',
      body: { paused: true },
    });
    expect(feedSchema.parse(await paused.json()).paused).toBe(true);

    expect((await add(token, url)).status).toBe(409);
    expect((await app.api(`/api/feeds/${feed.id}`, { token, method: 'DELETE' })).status).toBe(204);
    expect(
      feedListSchema.parse(await (await app.api('/api/feeds', { token })).json()).items,
    ).toEqual([]);
  });

  test('two users, one URL: one shared feed; each sees only their own, the other`s id is 404', async () => {
    const [alice, bob] = [await signedInUser(), await signedInUser()];
    const url = server.url('/recorded/rss-manton-2015-09-25.xml');
    const aliceFeed = feedSchema.parse(await (await add(alice, url)).json());
    const bobFeed = feedSchema.parse(await (await add(bob, url)).json());
    expect(aliceFeed.id).not.toBe(bobFeed.id);
    const rows = (await app.database.db.select().from(feeds)).filter((row) => row.url === url);
    expect(rows).toHaveLength(1);

    for (const method of ['PATCH', 'DELETE'] as const) {
      const answer = await app.api(`/api/feeds/${aliceFeed.id}`, {
        token: bob,
        method,
        ...(method === 'PATCH' ? { body: { paused: true } } : {}),
      });
      expect(answer.status).toBe(404);
      expect((await apiErrorOf(answer)).code).toBe('NOT_FOUND');
    }
    const bobList = feedListSchema.parse(
      await (await app.api('/api/feeds', { token: bob })).json(),
    );
    expect(bobList.items.map((item) => item.id)).toEqual([bobFeed.id]);
  });

  test('bad input: a clear message on the url field, never a 500', async () => {
    const token = await signedInUser();
    server.set('/page.html', {
      type: 'text/html',
      body: '<!doctype html><html><head><title>x</title></head><body>hello</body></html>',
    });
    server.set('/huge.html', {
      type: 'text/html',
      body: `<!doctype html><html><body>${'x'.repeat(5 * 1024 * 1024)}</body></html>`,
    });
    const cases: [string, string][] = [
      [server.url('/page.html'), 'not a feed: the page links no feed'],
      [server.url('/huge.html'), 'the answer is larger than 2 MB'],
      [server.url('/missing.xml'), '404 Not Found'],
      ['file:///etc/passwd', 'only http and https addresses'],
      [
        'https://user:secret@example.org/feed',
        'an address with a user name or password is not allowed',
      ],
    ];
    for (const [url, message] of cases) {
      const answer = await add(token, url);
      expect(answer.status, url).toBe(400);
      const error = await apiErrorOf(answer);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details).toEqual([{ path: 'url', message }]);
    }
    const empty = await add(token, '');
    expect(empty.status).toBe(400);
  });

  test('at most MAX_FEEDS_PER_USER feeds', async () => {
    const token = await signedInUser();
    for (const file of [
      'rss-macworld-2017-11-28.xml',
      'rss-monkeydom-2018-09-06.xml',
      'atom-reddit-front-2016-01.xml',
    ]) {
      expect((await add(token, server.url(`/recorded/${file}`))).status).toBe(201);
    }
    const over = await add(token, server.url('/recorded/rss-couchbase-blog-2016-12-06.xml'));
    expect(over.status).toBe(422);
    expect(await apiErrorOf(over)).toMatchObject({ code: 'LIMIT_REACHED', details: { limit: 3 } });
  });
});
