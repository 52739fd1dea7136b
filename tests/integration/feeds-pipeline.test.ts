import { readFileSync } from 'node:fs';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addFeed } from '../../src/core/feeds/add-feed.ts';
import { updateFeed } from '../../src/core/feeds/update-feed.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { feeds } from '../../src/db/schema/feeds.ts';
import { items } from '../../src/db/schema/items.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { type PollFeedsDeps, pollDueFeeds } from '../../src/pipeline/poll-feeds.ts';
import { createMonitor, createUser } from '../support/factories.ts';
import { type FeedServer, startFeedServer } from '../support/feed-server.ts';
import { silentLogger } from '../support/silent-logger.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The recorded feeds over real HTTP through the poller and the matchers: each entry stored and
// matched once across restarts, edits and 304s; one fetch for two users; the items of a feed
// reach only the monitors of the users who added it.

const RECORDED = path.join(import.meta.dirname, '..', 'fixtures', 'recorded');
const config = {
  FEEDS_ALLOW_PRIVATE: true,
  MAX_FEEDS_PER_USER: 50,
  FEED_TIMEOUT_MS: 5000,
  FEED_MAX_BYTES: 2 * 1024 * 1024,
};

describe('feeds through the pipeline', () => {
  let handle: DatabaseHandle;
  let server: FeedServer;
  const events = new MatchEvents();
  beforeAll(async () => {
    handle = await createTestDatabase();
    server = await startFeedServer();
  });
  afterAll(async () => {
    await server.close();
    await handle.close();
  });

  /** A restart: a fresh poller and a fresh index over the same database, at `now`. */
  async function pollAndMatch(now: Date) {
    const deps: PollFeedsDeps = { db: handle.db, config, logger: silentLogger, now: () => now };
    const polled = await pollDueFeeds(deps);
    const index = await loadMonitorIndex(handle.db);
    let matched = 0;
    for (;;) {
      const result = await matchNewItems({ db: handle.db, index, events }, { limit: 1000 });
      matched += result.matches;
      if (!result.more) break;
    }
    return { ...polled, matched };
  }

  async function matchesOf(monitorId: string) {
    const rows = await handle.db
      .select({ externalId: matches.externalId })
      .from(matches)
      .where(eq(matches.monitorId, monitorId));
    return rows.map((row) => row.externalId).sort();
  }

  test('two users, one URL: one fetch; each sees every entry once; a third user sees none', async () => {
    const db = handle.db;
    const [alice, bob, carol] = [await createUser(db), await createUser(db), await createUser(db)];
    // "inessential" is in every entry's link; the monitors watch every site.
    const aliceMonitor = await createMonitor(db, { userId: alice.id, query: 'inessential' });
    const bobMonitor = await createMonitor(db, { userId: bob.id, query: 'inessential' });
    const carolMonitor = await createMonitor(db, { userId: carol.id, query: 'inessential' });
    // The same feed by its name, and a feed of another name.
    const byName = await createMonitor(db, {
      userId: alice.id,
      query: 'feed:"inessential.com" breakpoints',
    });
    const otherName = await createMonitor(db, {
      userId: alice.id,
      query: 'feed:"Another blog" breakpoints',
    });
    const feedPath = '/feed.json';
    const recorded = JSON.parse(
      readFileSync(path.join(RECORDED, 'jsonfeed-inessential-2017-06-02.json'), 'utf8'),
    ) as { items: { id: string; url?: string; title?: string; content_html?: string }[] };
    server.set(feedPath, { type: 'application/json', body: JSON.stringify(recorded) });

    const aliceFeed = await addFeed(
      { db, config },
      { userId: alice.id, url: server.url(feedPath) },
    );
    const bobFeed = await addFeed({ db, config }, { userId: bob.id, url: server.url(feedPath) });
    expect(await db.select({ id: feeds.id }).from(feeds)).toHaveLength(1);
    const hitsAfterAdding = server.hits(feedPath);

    const start = new Date('2030-01-01T00:00:00Z');
    const first = await pollAndMatch(start);
    expect(first).toMatchObject({ fetched: 1, stored: 20 });
    expect(server.hits(feedPath) - hitsAfterAdding).toBe(1);
    const everyEntry = recorded.items.map((item) => expect.stringMatching(`/${item.id}$`));
    expect(await matchesOf(aliceMonitor.id)).toEqual(expect.arrayContaining(everyEntry));
    expect(await matchesOf(aliceMonitor.id)).toHaveLength(20);
    expect(await matchesOf(bobMonitor.id)).toHaveLength(20);
    expect(await matchesOf(carolMonitor.id)).toEqual([]);
    expect(await matchesOf(byName.id)).toEqual([
      `${(await db.select({ id: feeds.id }).from(feeds))[0]?.id}/http://inessential.com/2017/06/02/james_dempsey_and_the_breakpoints_benefi`,
    ]);
    expect(await matchesOf(otherName.id)).toEqual([]);

    // Not due yet: no fetch. Due: the ETag makes it a 304, which stores and parses nothing.
    expect(await pollAndMatch(new Date(start.getTime() + 60_000))).toMatchObject({ fetched: 0 });
    const later = new Date(start.getTime() + 7 * 3600_000);
    expect(await pollAndMatch(later)).toMatchObject({ fetched: 1, stored: 0, matched: 0 });
    const [afterNotModified] = await db.select().from(feeds);
    expect(afterNotModified?.lastSuccessAt?.toISOString()).toBe(later.toISOString());
    expect(afterNotModified?.itemsSeen).toBe(20);

    // An entry edited in place and a new one: only the new one is stored and matched, once each.
    const edited = structuredClone(recorded);
    const firstEntry = edited.items[0];
    if (!firstEntry) throw new Error('no entry');
    firstEntry.content_html = '<p>Edited after it was published.</p>';
    edited.items.unshift({
      id: 'http://inessential.com/2017/06/03/a_new_entry',
      url: 'http://inessential.com/2017/06/03/a_new_entry',
      title: 'A new entry',
      content_html: '<p>New.</p>',
    });
    server.set(feedPath, { type: 'application/json', body: JSON.stringify(edited) });
    // Bob pauses his feed: his monitors no longer get its new items.
    await updateFeed({ db }, { userId: bob.id, id: bobFeed.id, change: { paused: true } });
    const edit = await pollAndMatch(new Date(later.getTime() + 7 * 3600_000));
    expect(edit).toMatchObject({ fetched: 1, stored: 1, matched: 1 });
    expect(await matchesOf(aliceMonitor.id)).toHaveLength(21);
    expect(await matchesOf(bobMonitor.id)).toHaveLength(20);
    expect(await matchesOf(carolMonitor.id)).toEqual([]);

    // A restart reads it all again: nothing new.
    const again = await pollAndMatch(new Date(later.getTime() + 20 * 3600_000));
    expect(again).toMatchObject({ stored: 0, matched: 0 });
    const stored = await db.select({ externalId: items.externalId }).from(items);
    expect(new Set(stored.map((row) => row.externalId)).size).toBe(21);
    expect(aliceFeed.id).not.toBe(bobFeed.id);
  });

  test('a feed that breaks shows it in words, and comes back', async () => {
    const db = handle.db;
    const user = await createUser(db);
    server.set('/breaks.xml', {
      type: 'application/xml',
      body: readFileSync(path.join(RECORDED, 'rss-monkeydom-2018-09-06.xml')),
    });
    const feed = await addFeed({ db, config }, { userId: user.id, url: server.url('/breaks.xml') });
    const at = new Date('2031-01-01T00:00:00Z');
    server.set('/breaks.xml', {
      type: 'text/html',
      body: '<!doctype html><html><body>gone</body></html>',
    });
    await pollAndMatch(at);
    let [row] = await db
      .select()
      .from(feeds)
      .where(eq(feeds.url, server.url('/breaks.xml')));
    expect(row?.lastError).toBe('not a feed');
    server.set('/breaks.xml', { status: 503, headers: { 'retry-after': '86400' } });
    await pollAndMatch(new Date(at.getTime() + 7 * 3600_000));
    [row] = await db
      .select()
      .from(feeds)
      .where(eq(feeds.url, server.url('/breaks.xml')));
    expect(row?.lastError).toBe('503 Service Unavailable');
    // Retry-After (a day) is honoured over the interval.
    expect(row?.nextFetchAt.getTime()).toBe(at.getTime() + 7 * 3600_000 + 86_400_000);
    expect(feed.kind).toBe('rss');
  });

  test('a Discourse forum: topics as posts, replies as comments of their topic, read once', async () => {
    const db = handle.db;
    const user = await createUser(db);
    const monitor = await createMonitor(db, { userId: user.id, query: 'site:feeds powervm' });
    server.set('/talk/posts.json', {
      type: 'application/json',
      body: JSON.stringify({
        // /posts.json lists the latest posts across topics: here the recorded topic's four.
        latest_posts: (
          JSON.parse(
            readFileSync(
              path.join(RECORDED, 'discourse-topic-1448-manageiq-2016-05-25.json'),
              'utf8',
            ),
          ) as { post_stream: { posts: Record<string, unknown>[] } }
        ).post_stream.posts.map((post) => ({ ...post, topic_title: 'IBM PowerVM support?' })),
      }),
    });
    server.set('/talk/about.json', {
      type: 'application/json',
      body: JSON.stringify({ about: { title: 'ManageIQ Talk' } }),
    });
    const feed = await addFeed(
      { db, config },
      { userId: user.id, url: server.url('/talk/posts.json') },
    );
    expect(feed).toMatchObject({
      kind: 'discourse',
      name: 'ManageIQ Talk',
      url: server.url('/talk'),
    });
    const at = new Date('2032-01-01T00:00:00Z');
    await pollAndMatch(at);
    const [row] = await db
      .select()
      .from(feeds)
      .where(eq(feeds.url, server.url('/talk')));
    const stored = await db
      .select({
        externalId: items.externalId,
        kind: items.kind,
        parent: items.parentExternalId,
        title: items.title,
      })
      .from(items)
      .where(eq(items.feedId, row?.id ?? 0))
      .orderBy(asc(items.id));
    expect(
      stored.map((item) => [
        item.externalId.split('/')[1],
        item.kind,
        item.parent?.split('/')[1] ?? null,
      ]),
    ).toEqual([
      ['t1448', 'post', null],
      ['p4387', 'comment', 't1448'],
      ['p4393', 'comment', 't1448'],
      ['p4396', 'comment', 't1448'],
    ]);
    expect(stored.every((item) => item.title === 'IBM PowerVM support?')).toBe(true);
    // Every post names PowerVM in its thread's title: each matched once, and once only after a restart.
    expect(await matchesOf(monitor.id)).toHaveLength(4);
    await pollAndMatch(new Date(at.getTime() + 7 * 3600_000));
    expect(await matchesOf(monitor.id)).toHaveLength(4);
  });
});
