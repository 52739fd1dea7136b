import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createMonitorIndex } from '../../src/matcher/monitor-index.ts';
import { parseQuery } from '../../src/matcher/query-parser.ts';
import { matchPageSchema } from '../../src/shared/match.ts';
import { monitorPreviewSchema, monitorSchema } from '../../src/shared/monitor.ts';
import { deliverItems, recordedItems } from '../support/feed.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// Issue 20, the security review: what one account's previews and monitors may cost everyone.
// Items are the recorded ones of tests/fixtures/items, brought in through the pipeline.

/** An OR of words that are common in the recorded items but none a stop word. */
const BROAD =
  'https OR http OR youtube OR watch OR imgur OR like OR time OR people OR think OR good OR make OR even OR first OR right OR really OR something OR well OR know';
const ITEMS = recordedItems(600);

async function signedIn(app: TestApp): Promise<string> {
  const user = await app.createUser();
  const { AccessToken } = await app.signIn(user);
  await app.api('/api/user', { token: AccessToken, method: 'POST', body: {} });
  return AccessToken;
}

describe('preview budget, breadth on save, matches per hour', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { PREVIEW_BUDGET_ITEMS: '50', MONITOR_MAX_MATCH_PERCENT: '10' },
    });
    await deliverItems(app, ITEMS);
  });
  afterAll(() => app.close());

  test('a preview whose candidates outrun its budget says it is an estimate, and what of', async () => {
    const token = await signedIn(app);
    const preview = async (query: string) => {
      const response = await app.api('/api/monitors/preview', {
        token,
        method: 'POST',
        body: { query },
      });
      expect(response.status).toBe(200);
      return monitorPreviewSchema.parse(await response.json());
    };
    const broad = await preview(BROAD);
    expect(broad.estimated).toBe(true);
    // 50 items read newest first, and (the first window showing the query rare enough for the
    // full-text index, at this database's size) at most 50 candidates more.
    expect(broad.basis).toMatchObject({ stoppedBy: 'items' });
    expect(broad.basis?.itemsExamined).toBeGreaterThanOrEqual(50);
    expect(broad.basis?.itemsExamined).toBeLessThanOrEqual(100);
    expect(broad.basis?.hoursExamined).toBeGreaterThan(0);
    expect(broad.basis?.hoursExamined).toBeLessThan(broad.coveredHours);
    // Honest: the scaled count is near what the matcher finds in all of them.
    const index = createMonitorIndex();
    index.add('broad', parseQuery(BROAD));
    const truth = ITEMS.filter((item) => index.match(item).length > 0).length;
    expect(broad.count).toBeGreaterThan(truth * 0.5);
    expect(broad.count).toBeLessThan(truth * 1.5);

    const narrow = await preview('never');
    expect(narrow.estimated).toBe(false);
    expect(narrow.basis).toBeNull();
  });

  test('a query that would match more than MONITOR_MAX_MATCH_PERCENT of recent items is refused on save', async () => {
    const token = await signedIn(app);
    const refused = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { query: BROAD },
    });
    expect(refused.status).toBe(400);
    const error = await apiErrorOf(refused);
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.message).toMatch(
      /^The query is too broad: it would match \d+% of recent posts \(\d+ of the newest 600\), and a monitor may match at most 10%/,
    );
    expect(error.details).toEqual([{ path: 'query', message: expect.stringMatching(/^it would/) }]);

    const created = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { query: 'never' },
    });
    expect(created.status).toBe(201);
    const { id } = monitorSchema.parse(await created.json());
    const changed = await app.api(`/api/monitors/${id}`, {
      token,
      method: 'PATCH',
      body: { query: BROAD },
    });
    expect(changed.status).toBe(400);
    expect((await apiErrorOf(changed)).message).toMatch(/too broad/);
  });

  test('a monitor stores at most MONITOR_MATCHES_PER_HOUR matches an hour, and its card says how many it left out', async () => {
    const token = await signedIn(app);
    const created = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { query: 'game' },
    });
    expect(created.status).toBe(201);
    const { id } = monitorSchema.parse(await created.json());
    const fresh = recordedItems(800).slice(600);
    const index = createMonitorIndex();
    index.add('m', parseQuery('game'));
    const wanted = fresh.filter((item) => index.match(item).length > 0).length;
    expect(wanted).toBeGreaterThan(3);

    await deliverItems(app, fresh, { matchesPerHour: 3 });
    const page = matchPageSchema.parse(
      await (await app.api(`/api/matches?monitorId=${id}`, { token })).json(),
    );
    expect(page.items).toHaveLength(3);
    const monitor = monitorSchema.parse(
      await (await app.api(`/api/monitors/${id}`, { token })).json(),
    );
    expect(monitor.matchCount).toBe(3);
    expect(monitor.cappedThisHour).toEqual({
      stored: 3,
      dropped: wanted - 3,
      resumesAt: expect.stringMatching(/T\d\d:00:00\.000Z$/),
    });
  });
});

describe('previews in flight', () => {
  let app: TestApp;
  beforeAll(async () => {
    // Previews may take 5% of the database's time: each rests 19× its step, so they stay in flight.
    app = await startTestApp({ env: { PREVIEW_DB_SHARE_PERCENT: '5' } });
    await deliverItems(app, ITEMS);
  });
  afterAll(() => app.close());

  const preview = (token: string, signal?: AbortSignal) =>
    fetch(`${app.url}/api/monitors/preview`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: BROAD }),
      ...(signal ? { signal } : {}),
    });

  test('a third preview of one user while two run answers 409 with a clear error', async () => {
    const token = await signedIn(app);
    const answers = await Promise.all([preview(token), preview(token), preview(token)]);
    const statuses = answers.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 200, 409]);
    const refused = answers.find((response) => response.status === 409) as Response;
    const error = await apiErrorOf(refused);
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toMatch(/already have 2 previews running/);
    expect(error.details).toEqual({ limit: 2 });
  });

  test('previews the client cancels stop on the server and free their places', async () => {
    const token = await signedIn(app);
    const controllers = [new AbortController(), new AbortController()];
    const cancelled = controllers.map((c) => preview(token, c.signal).catch(() => null));
    await sleep(100);
    for (const controller of controllers) controller.abort();
    await Promise.all(cancelled);
    await sleep(200);
    const next = await preview(token);
    expect(next.status).toBe(200);
  });
});
