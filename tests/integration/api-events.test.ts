import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { MAX_STREAMS_PER_USER } from '../../src/server/routes/events.ts';
import { matchSchema } from '../../src/shared/match.ts';
import { monitorSchema } from '../../src/shared/monitor.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { openSse } from '../support/sse-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// GET /api/events: the live feed over server-sent events.
describe('/api/events', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      captureLogs: true,
      liveFeed: { pollMs: 200, heartbeatMs: 300 },
    });
  });
  afterAll(() => app.close());

  async function signedInUser(query: string) {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    await app.api('/api/user', { token: AccessToken, method: 'POST', body: {} });
    const response = await app.api('/api/monitors', {
      token: AccessToken,
      method: 'POST',
      body: { query },
    });
    expect(response.status).toBe(201);
    return { token: AccessToken, monitor: monitorSchema.parse(await response.json()) };
  }

  test('one user holds at most MAX_STREAMS_PER_USER live streams; closing one frees a place', async () => {
    const carol = await signedInUser('capword');
    const dave = await signedInUser('otherword');
    const feeds = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) {
      const feed = await openSse(`${app.url}/api/events?token=${carol.token}`);
      expect(feed.status).toBe(200);
      await feed.waitFor((e) => e.event === 'ready');
      feeds.push(feed);
    }
    const refused = await app.api('/api/events', { token: carol.token });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    // Another user is not affected.
    const other = await openSse(`${app.url}/api/events?token=${dave.token}`);
    expect(other.status).toBe(200);
    other.close();
    feeds.pop()?.close();
    const until = Date.now() + 2000;
    let again = await openSse(`${app.url}/api/events?token=${carol.token}`);
    while (again.status === 429 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      again = await openSse(`${app.url}/api/events?token=${carol.token}`);
    }
    expect(again.status).toBe(200);
    again.close();
    for (const feed of feeds) feed.close();
  });

  test('each user hears their own new matches within a second of the commit, and only theirs', async () => {
    const alice = await signedInUser('livewire');
    const bob = await signedInUser('otherwire');
    const aliceFeed = await openSse(`${app.url}/api/events?token=${alice.token}`);
    const bobFeed = await openSse(`${app.url}/api/events`, {
      Authorization: alice.token.replace(/.*/, bob.token),
    });
    expect(aliceFeed.status).toBe(200);
    expect(bobFeed.status).toBe(200);
    await aliceFeed.waitFor((e) => e.event === 'ready');
    await bobFeed.waitFor((e) => e.event === 'ready');

    const committed = Date.now();
    await deliverItems(app, [testItem({ title: 'The livewire story' })]);
    const event = await aliceFeed.waitFor((e) => e.event === 'match', 1000);
    expect(Date.now() - committed).toBeLessThan(1000);
    const match = matchSchema.parse(JSON.parse(event.data));
    expect(match).toMatchObject({ title: 'The livewire story', monitorId: alice.monitor.id });
    expect(match.highlights).toEqual([[4, 12]]);
    expect(event.id).toBe(match.id);

    // Heartbeats keep the connection open; nothing of Alice's reached Bob.
    const until = Date.now() + 2000;
    while (bobFeed.comments < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(bobFeed.comments).toBeGreaterThanOrEqual(2);
    expect(bobFeed.events.filter((e) => e.event === 'match')).toEqual([]);
    // Delivered once, though the poll runs every 200 ms meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(aliceFeed.events.filter((e) => e.event === 'match')).toHaveLength(1);
    aliceFeed.close();
    bobFeed.close();
  });

  test('matches committed by another process (not announced here) arrive through the poll', async () => {
    const carol = await signedInUser('crossprocess');
    const feed = await openSse(`${app.url}/api/events?token=${carol.token}`);
    await feed.waitFor((e) => e.event === 'ready');
    const db = app.database.db;
    // A worker elsewhere: its own MatchEvents, which this server never hears.
    await storeItems(db, {
      source: 'reddit',
      items: [testItem({ source: 'reddit', title: 'crossprocess works' })],
    });
    const committed = Date.now();
    await matchNewItems({ db, index: await loadMonitorIndex(db), events: new MatchEvents() });
    const event = await feed.waitFor((e) => e.event === 'match', 1000);
    expect(Date.now() - committed).toBeLessThan(1000);
    expect(JSON.parse(event.data)).toMatchObject({ title: 'crossprocess works', source: 'reddit' });
    feed.close();
  });

  test('the token in the query string is never logged; a bad one is 401', async () => {
    const dave = await signedInUser('loggedword');
    const feed = await openSse(`${app.url}/api/events?token=${dave.token}`);
    await feed.waitFor((e) => e.event === 'ready');
    feed.close();
    const refused = await openSse(`${app.url}/api/events?token=${dave.token}x`);
    expect(refused.status).toBe(401);
    const noToken = await openSse(`${app.url}/api/events`);
    expect(noToken.status).toBe(401);
    // Only /api/events takes a token in the query string.
    const elsewhere = await fetch(`${app.url}/api/monitors?token=${dave.token}`);
    expect(elsewhere.status).toBe(401);
    const logs = app.logs.join('');
    expect(logs).toContain('/api/events');
    expect(logs).not.toContain(dave.token);
    expect(logs).not.toContain(dave.token.slice(-20));
  });
});

describe('/api/events at token expiry', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { IDP_ACCESS_TOKEN_TTL_SECONDS: '5' } });
  });
  afterAll(() => app.close());

  test('the stream says so and ends when the access token expires', async () => {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    const feed = await openSse(`${app.url}/api/events?token=${AccessToken}`);
    const ready = await feed.waitFor((e) => e.event === 'ready');
    const expiresAt = Date.parse(JSON.parse(ready.data).expiresAt);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5000);
    await feed.ended;
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 50);
    expect(feed.events.at(-1)?.event).toBe('expired');
  }, 15_000);
});
