import { GlobalSignOutCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { STREAM_TICKET_TTL_MS } from '../../src/server/live/stream-tickets.ts';
import { MAX_STREAMS_PER_USER } from '../../src/server/routes/events.ts';
import { matchSchema } from '../../src/shared/match.ts';
import { monitorSchema } from '../../src/shared/monitor.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { createManualClock } from '../support/manual-clock.ts';
import { openSse } from '../support/sse-client.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** A stream ticket from `POST /api/events/ticket`, made with the access token in Authorization. */
async function ticketFor(app: TestApp, token: string): Promise<string> {
  const response = await app.api('/api/events/ticket', { token, method: 'POST' });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { ticket: string; expiresAt: string };
  expect(Date.parse(body.expiresAt)).toBeGreaterThan(Date.now());
  return body.ticket;
}

/** The live feed as the web app opens it: a ticket, then EventSource's GET with `?ticket=`. */
async function openFeedOf(app: TestApp, token: string) {
  const ticket = await ticketFor(app, token);
  return openSse(`${app.url}/api/events?ticket=${encodeURIComponent(ticket)}`);
}

// GET /api/events: the live feed over server-sent events.
describe('/api/events', () => {
  let app: TestApp;
  // Tickets live their 30 s on a clock the test moves: a ticket is late when the test says so,
  // never because a busy machine was slow between taking one and using it.
  const ticketClock = createManualClock();
  beforeAll(async () => {
    app = await startTestApp({
      captureLogs: true,
      liveFeed: { pollMs: 200, heartbeatMs: 300, sessionCheckMs: 200, clock: ticketClock },
    });
  });
  afterAll(() => app.close());
  const openFeed = (token: string) => openFeedOf(app, token);

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
      const feed = await openFeed(carol.token);
      expect(feed.status).toBe(200);
      await feed.waitFor((e) => e.event === 'ready');
      feeds.push(feed);
    }
    const refused = await app.api('/api/events', { token: carol.token });
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
    // Another user is not affected.
    const other = await openFeed(dave.token);
    expect(other.status).toBe(200);
    other.close();
    feeds.pop()?.close();
    const until = Date.now() + 2000;
    let again = await openFeed(carol.token);
    while (again.status === 429 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 50));
      again = await openFeed(carol.token);
    }
    expect(again.status).toBe(200);
    again.close();
    for (const feed of feeds) feed.close();
  });

  test('each user hears their own new matches within a second of the commit, and only theirs', async () => {
    const alice = await signedInUser('livewire');
    const bob = await signedInUser('otherwire');
    const aliceFeed = await openFeed(alice.token);
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
    expect(match.titleHighlights).toEqual([[4, 12]]);
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
    const feed = await openFeed(carol.token);
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

  test('the access token never goes in the URL: a short-lived ticket opens one stream, once', async () => {
    const dave = await signedInUser('ticketword');
    const ticket = await ticketFor(app, dave.token);
    // The ticket carries nothing readable: not the token, not a piece of it.
    const decoded = Buffer.from(ticket, 'base64url').toString('latin1');
    for (const piece of [dave.token, ...dave.token.split('.')]) {
      expect(ticket).not.toContain(piece);
      expect(decoded).not.toContain(piece);
    }
    const url = `${app.url}/api/events?ticket=${encodeURIComponent(ticket)}`;
    const feed = await openSse(url);
    expect(feed.status).toBe(200);
    await feed.waitFor((e) => e.event === 'ready');
    // Used once: the same ticket again is refused.
    expect((await openSse(url)).status).toBe(401);
    feed.close();
    // The access token itself is no longer taken from the query string, here or elsewhere.
    expect((await openSse(`${app.url}/api/events?token=${dave.token}`)).status).toBe(401);
    expect((await fetch(`${app.url}/api/monitors?token=${dave.token}`)).status).toBe(401);
    // A ticket is for the stream only: it opens nothing else.
    const other = await ticketFor(app, dave.token);
    expect((await fetch(`${app.url}/api/monitors?ticket=${other}`)).status).toBe(401);
    expect(
      (await fetch(`${app.url}/api/monitors`, { headers: { Authorization: other } })).status,
    ).toBe(401);
    // Tampered, unknown or missing tickets are 401; so is a ticket past its lifetime.
    const tampered = `${other.slice(0, -2)}${other.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await openSse(`${app.url}/api/events?ticket=${tampered}`)).status).toBe(401);
    expect((await openSse(`${app.url}/api/events?ticket=nonsense`)).status).toBe(401);
    expect((await openSse(`${app.url}/api/events`)).status).toBe(401);
    const late = await ticketFor(app, dave.token);
    ticketClock.advance(STREAM_TICKET_TTL_MS);
    expect((await openSse(`${app.url}/api/events?ticket=${late}`)).status).toBe(401);
    // Making a ticket needs a valid token in Authorization.
    expect((await app.api('/api/events/ticket', { method: 'POST' })).status).toBe(401);
    expect(
      (await app.api('/api/events/ticket', { token: `${dave.token}x`, method: 'POST' })).status,
    ).toBe(401);
    const logs = app.logs.join('');
    expect(logs).toContain('/api/events');
    for (const secret of [dave.token, dave.token.slice(-20), ticket, other, late]) {
      expect(logs).not.toContain(secret);
    }
  });

  test('signed out everywhere (GlobalSignOut), an open stream says so and ends', async () => {
    const erin = await signedInUser('signoutword');
    const feed = await openFeed(erin.token);
    await feed.waitFor((e) => e.event === 'ready');
    await app.cognito().send(new GlobalSignOutCommand({ AccessToken: erin.token }));
    const signedOut = Date.now();
    await feed.ended;
    // Checked every 200 ms here (every 30 s by default): the stream ends well within a minute.
    expect(Date.now() - signedOut).toBeLessThan(3000);
    expect(feed.events.at(-1)?.event).toBe('signed-out');
    // A new stream needs a new ticket, which is refused.
    const again = await app.api('/api/events/ticket', { token: erin.token, method: 'POST' });
    expect(again.status).toBe(401);
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
    const feed = await openFeedOf(app, AccessToken);
    const ready = await feed.waitFor((e) => e.event === 'ready');
    const expiresAt = Date.parse(JSON.parse(ready.data).expiresAt);
    expect(expiresAt - Date.now()).toBeLessThanOrEqual(5000);
    await feed.ended;
    expect(Date.now()).toBeGreaterThanOrEqual(expiresAt - 50);
    expect(feed.events.at(-1)?.event).toBe('expired');
  }, 15_000);
});
