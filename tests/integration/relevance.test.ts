import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { setMonitorWebhook } from '../../src/core/webhooks/set-monitor-webhook.ts';
import { relevanceModels } from '../../src/db/schema/monitors.ts';
import { type Match, matchPageSchema, matchSchema } from '../../src/shared/match.ts';
import { monitorCoachSchema, monitorSchema } from '../../src/shared/monitor.ts';
import type { NormalisedItem } from '../../src/sources/normalised-item.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';
import { apiErrorOf } from '../support/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// Relevance (docs/product.md, "Relevance"): feedback on matches, the per-monitor model it
// trains, the threshold that holds low-relevance matches back from email and webhooks, and the
// query coach. Matches are made by the pipeline from items.
let h: DeliveryHarness;
let receiver: WebhookReceiver | undefined;
beforeAll(async () => {
  h = await startDeliveryHarness({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
});
afterAll(() => h.close());
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

let sequence = 0;
/** A Reddit post of `community` with this title and body. */
function post(community: string, title: string, body = ''): NormalisedItem {
  sequence += 1;
  const externalId = `rel-${Date.now().toString(36)}-${sequence}`;
  return {
    source: 'reddit',
    externalId,
    kind: 'post',
    title,
    body,
    url: null,
    permalink: `https://www.reddit.com/r/${community}/comments/${externalId}/`,
    author: `u${sequence % 3}`,
    community,
    parentExternalId: null,
    threadTitle: null,
    createdAt: new Date(h.clock.now()).toISOString(),
  };
}

const GAME = [
  'Rust server wipe tonight, looking for a clan',
  'Best Rust base design after the wipe',
  'Rust console server lag again',
  'Rust raid on our base at the wipe',
  'Looking for Rust teammates, monthly wipe server',
];
const LANGUAGE = [
  'Rust borrow checker explained for beginners',
  'Async Rust: pinning and futures',
  'Rust compiler errors got much better',
  'Writing a parser in Rust with nom',
  'Rust traits versus interfaces',
];

async function signedIn() {
  const user = await h.app.createUser();
  const { AccessToken } = await h.app.signIn(user);
  const created = await h.app.api('/api/user', { token: AccessToken, method: 'POST', body: {} });
  const { id } = (await created.json()) as { id: string };
  return { id, email: user.email, token: AccessToken };
}

async function feed(token: string, query = ''): Promise<Match[]> {
  const response = await h.app.api(`/api/matches?limit=100${query}`, { token });
  expect(response.status, await response.clone().text()).toBe(200);
  return matchPageSchema.parse(await response.json()).items;
}

async function rate(token: string, id: string, rating: unknown) {
  return h.app.api(`/api/matches/${id}/feedback`, { token, method: 'PUT', body: { rating } });
}

async function newMonitor(token: string, body: object) {
  const response = await h.app.api('/api/monitors', { token, method: 'POST', body });
  expect(response.status, await response.clone().text()).toBe(201);
  return monitorSchema.parse(await response.json());
}

describe('feedback', () => {
  test('rating teaches the monitor: its other matches are scored again, with reasons', async () => {
    const { token } = await signedIn();
    const monitor = await newMonitor(token, { query: 'rust' });
    await h.publishItems([
      ...GAME.map((title) => post('playrust', title)),
      ...LANGUAGE.map((title) => post('rust', title)),
    ]);
    const before = await feed(token);
    expect(before).toHaveLength(10);
    for (const match of before) {
      expect(match.rating).toBeNull();
      // The general signals: every hit is in the title.
      expect(match.relevance).toBeGreaterThan(0.5);
      expect(match.relevanceReasons).toContain('the words are in the title');
    }
    const game = before.filter((m) => m.community === 'playrust');
    const language = before.filter((m) => m.community === 'rust');
    for (const match of [...game.slice(0, 2), ...language.slice(0, 2)]) {
      const response = await rate(
        token,
        match.id,
        match.community === 'rust' ? 'relevant' : 'irrelevant',
      );
      expect(response.status).toBe(200);
      const rated = matchSchema.parse(await response.json());
      expect(rated.rating).toBe(match.community === 'rust' ? 'relevant' : 'irrelevant');
    }
    const after = await feed(token);
    const unrated = after.filter((m) => m.rating === null);
    expect(unrated).toHaveLength(6);
    for (const match of unrated) {
      if (match.community === 'playrust') {
        expect(match.relevance).toBeLessThan(0.5);
        expect(match.relevanceReasons.join(' ')).toMatch(
          /r\/playrust: in 2 you marked not relevant/,
        );
      } else {
        expect(match.relevance).toBeGreaterThan(0.5);
        expect(match.relevanceReasons.join(' ')).toMatch(/you marked relevant/);
      }
    }
    // The model is stored with the monitor: what every worker scores with.
    const [stored] = await h.db
      .select()
      .from(relevanceModels)
      .where(eq(relevanceModels.monitorId, monitor.id));
    expect(modelOf(stored).rated).toEqual([2, 2]);

    // Sorted by relevance: every language post before every game post.
    const sorted = await feed(token, '&sort=relevance');
    const communities = sorted.map((m) => m.community);
    expect(communities.lastIndexOf('rust')).toBeLessThan(communities.indexOf('playrust'));
    const relevances = sorted.map((m) => m.relevance ?? -1);
    expect(relevances).toEqual([...relevances].sort((a, b) => b - a));
    // Pages of the relevance order neither repeat nor skip.
    const firstPage = await h.app.api('/api/matches?sort=relevance&limit=4', { token });
    const page1 = matchPageSchema.parse(await firstPage.json());
    const page2 = matchPageSchema.parse(
      await (
        await h.app.api(`/api/matches?sort=relevance&limit=100&cursor=${page1.nextCursor}`, {
          token,
        })
      ).json(),
    );
    expect([...page1.items, ...page2.items].map((m) => m.id)).toEqual(sorted.map((m) => m.id));
    const confident = await feed(token, '&minRelevance=0.5');
    expect(new Set(confident.map((m) => m.community))).toEqual(new Set(['rust']));

    // Taking a rating back takes its weight out of the model.
    const first = game[0];
    if (!first) throw new Error('no match');
    const undone = matchSchema.parse(await (await rate(token, first.id, null)).json());
    expect(undone.rating).toBeNull();
    const [again] = await h.db
      .select()
      .from(relevanceModels)
      .where(eq(relevanceModels.monitorId, monitor.id));
    expect(modelOf(again).rated).toEqual([2, 1]);
  });

  test('another user’s match is 404, a bad rating or id 400, and dismissing teaches a weak no', async () => {
    const owner = await signedIn();
    const other = await signedIn();
    const monitor = await newMonitor(owner.token, { query: 'zig' });
    await h.publishItems([post('zig', 'Zig comptime tricks'), post('zig', 'Zig 0.14 is out')]);
    const [match, second] = await feed(owner.token);
    if (!match || !second) throw new Error('no match');
    const foreign = await rate(other.token, match.id, 'relevant');
    expect(foreign.status).toBe(404);
    expect((await apiErrorOf(foreign)).code).toBe('NOT_FOUND');
    const bad = await rate(owner.token, match.id, 'maybe');
    expect(bad.status).toBe(400);
    expect((await apiErrorOf(bad)).code).toBe('VALIDATION_FAILED');
    const missing = await h.app.api(`/api/matches/${match.id}/feedback`, {
      token: owner.token,
      method: 'PUT',
      body: {},
    });
    expect(missing.status).toBe(400);
    expect((await rate(owner.token, 'abc', 'relevant')).status).toBe(400);
    expect((await feed(owner.token)).every((m) => m.rating === null)).toBe(true);

    const dismissed = await h.app.api(`/api/matches/${match.id}`, {
      token: owner.token,
      method: 'DELETE',
    });
    expect(dismissed.status).toBe(204);
    const [stored] = await h.db
      .select()
      .from(relevanceModels)
      .where(eq(relevanceModels.monitorId, monitor.id));
    expect(modelOf(stored).rated).toEqual([0, 0.5]);
  });
});

describe('threshold', () => {
  test('matches under the monitor’s threshold stay in the feed but are neither emailed nor sent to the webhook', async () => {
    const user = await signedIn();
    const monitor = await newMonitor(user.token, { query: 'rust', relevanceThreshold: null });
    receiver = await startWebhookReceiver();
    await setMonitorWebhook(h.ctx, {
      userId: user.id,
      monitorId: monitor.id,
      webhook: { kind: 'json', url: receiver.url },
    });
    // Teach the monitor, and let everything pending so far go out.
    await h.publishItems([post('playrust', GAME[0] ?? ''), post('rust', LANGUAGE[0] ?? '')]);
    for (const match of await feed(user.token)) {
      const rating = match.community === 'rust' ? 'relevant' : 'irrelevant';
      expect((await rate(user.token, match.id, rating)).status).toBe(200);
    }
    await runDelivery();
    await h.app.smtp?.waitForMail(user.email);
    const callsBefore = receiver.calls.length;

    const patched = await h.app.api(`/api/monitors/${monitor.id}`, {
      token: user.token,
      method: 'PATCH',
      body: { relevanceThreshold: 0.5 },
    });
    expect(patched.status).toBe(200);
    expect(monitorSchema.parse(await patched.json()).relevanceThreshold).toBe(0.5);
    const outOfRange = await h.app.api(`/api/monitors/${monitor.id}`, {
      token: user.token,
      method: 'PATCH',
      body: { relevanceThreshold: 1.5 },
    });
    expect(outOfRange.status).toBe(400);

    await h.publishItems([
      post('playrust', 'Rust wipe day: server clan base raid'),
      post('rust', 'Rust borrow checker and async compiler errors'),
    ]);
    await runDelivery();
    const mail = await h.app.smtp?.waitForMail(user.email);
    expect(mail?.subject).toBe('1 new mention of “rust”');
    expect(mail?.text).toContain('borrow checker');
    expect(mail?.text).not.toContain('wipe day');
    const calls = receiver.calls.slice(callsBefore);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toContain('borrow checker');
    expect(calls[0]?.body).not.toContain('wipe day');

    const low = await feed(user.token, '&lowRelevance=true');
    // The one rated not relevant is under the threshold too.
    expect(low.map((m) => m.title)).toEqual(['Rust wipe day: server clan base raid', GAME[0]]);
    const kept = await feed(user.token, '&lowRelevance=false');
    expect(kept.map((m) => m.title)).toContain('Rust borrow checker and async compiler errors');
    expect(kept.map((m) => m.title)).not.toContain('Rust wipe day: server clan base raid');
  });
});

describe('email rating links', () => {
  test('signed, one click on a page that asks first, and undone', async () => {
    const user = await signedIn();
    await newMonitor(user.token, { query: 'zig' });
    await h.publishItems([post('Zig', 'Zig comptime is great')]);
    await runDelivery();
    const mail = await h.app.smtp?.waitForMail(user.email);
    const relevantUrl = /Relevant: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    const irrelevantUrl = /Not relevant: (\S+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(relevantUrl).toMatch(/\/feedback\?token=/);
    expect(mail?.html).toContain('>Not relevant</a>');
    const token = new URL(relevantUrl).searchParams.get('token') ?? '';
    const notToken = new URL(irrelevantUrl).searchParams.get('token') ?? '';

    // Reading the link (what a mail scanner does) changes nothing.
    const read = await h.app.api(`/api/feedback?token=${encodeURIComponent(token)}`);
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual({
      rating: 'relevant',
      title: 'Zig comptime is great',
      current: null,
    });
    expect((await feed(user.token))[0]?.rating).toBeNull();

    const apply = (body: object) =>
      h.app.api('/api/feedback', { method: 'POST', body: { undo: false, ...body } });
    const rated = await apply({ token: notToken });
    expect(rated.status).toBe(200);
    expect(await rated.json()).toMatchObject({ rating: 'irrelevant', current: 'irrelevant' });
    expect((await feed(user.token))[0]?.rating).toBe('irrelevant');
    const undone = await apply({ token: notToken, undo: true });
    expect(await undone.json()).toMatchObject({ current: null });
    expect((await feed(user.token))[0]?.rating).toBeNull();

    // A token altered in any part, or of another kind, is refused and changes nothing.
    const [id, letter, mac] = token.split('.');
    for (const bad of [
      `${id}.i.${mac}`,
      `${Number(id) + 1}.${letter}.${mac}`,
      `${token.slice(0, -2)}AA`,
      '',
    ]) {
      const refused = await apply({ token: bad });
      expect(refused.status, bad).toBe(400);
      expect((await apiErrorOf(refused)).code).toBe('VALIDATION_FAILED');
    }
    expect((await feed(user.token))[0]?.rating).toBeNull();
  });
});

describe('coach', () => {
  test('suggests leaving out what the not relevant matches share; applied, it removes what it said', async () => {
    const user = await signedIn();
    const other = await signedIn();
    const monitor = await newMonitor(user.token, { query: 'rust' });
    const game = GAME.map((title) => post('playrust', title));
    const language = LANGUAGE.map((title) => post('rust', title));
    await h.publishItems([...game, ...language]);
    for (const match of await feed(user.token)) {
      const rating = match.community === 'rust' ? 'relevant' : 'irrelevant';
      expect((await rate(user.token, match.id, rating)).status).toBe(200);
    }
    const response = await h.app.api(`/api/monitors/${monitor.id}/coach`, { token: user.token });
    expect(response.status).toBe(200);
    const coach = monitorCoachSchema.parse(await response.json());
    expect(coach.rated).toEqual({ relevant: 5, irrelevant: 5 });
    expect(coach.scores).toHaveLength(10);
    const [best] = coach.suggestions;
    expect(best).toEqual({
      kind: 'community',
      change: '-subreddit:playrust',
      query: '(rust) -subreddit:playrust',
      removesIrrelevant: 5,
      removesRelevant: 0,
      removesUnrated: 0,
      summary: 'removes 5 of your 5 not relevant, 0 of 5 relevant',
    });
    // Every suggestion removes more not relevant matches than relevant ones.
    for (const s of coach.suggestions)
      expect(s.removesIrrelevant).toBeGreaterThan(s.removesRelevant);
    const foreign = await h.app.api(`/api/monitors/${monitor.id}/coach`, { token: other.token });
    expect(foreign.status).toBe(404);

    const applied = await h.app.api(`/api/monitors/${monitor.id}`, {
      token: user.token,
      method: 'PATCH',
      body: { query: best?.query },
    });
    expect(applied.status).toBe(200);
    // The same posts again: the applied query keeps exactly what the coach said it would.
    await h.publishItems(
      [...game, ...language].map((item) => ({ ...item, externalId: `${item.externalId}-again` })),
    );
    const again = (await feed(user.token)).filter((m) => m.rating === null);
    expect(again).toHaveLength(10 - (best?.removesIrrelevant ?? 0) - (best?.removesRelevant ?? 0));
    expect(again.every((m) => m.community === 'rust')).toBe(true);
  });
});

function modelOf(row: { model: unknown } | undefined): { rated: number[] } {
  if (!row) throw new Error('the monitor has no model');
  return row.model as { rated: number[] };
}

/** Delivery passes until the batch window (ALERT_BATCH_SECONDS) has passed. */
async function runDelivery() {
  await h.pass();
  h.clock.advance(120_000);
  await h.pass();
}
