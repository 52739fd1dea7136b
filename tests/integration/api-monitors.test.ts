import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { PREVIEWS_PER_MINUTE } from '../../src/server/routes/monitors.ts';
import { matchPageSchema } from '../../src/shared/match.ts';
import { type Monitor, monitorPreviewSchema, monitorSchema } from '../../src/shared/monitor.ts';
import { SOURCE_NAMES } from '../../src/shared/sources.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// /api/monitors with real tokens from the embedded identity service, items brought in through
// the pipeline's entry point.
describe('/api/monitors', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { MAX_MONITORS_PER_USER: '3' } });
  });
  afterAll(() => app.close());

  async function signedInUser() {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    await app.api('/api/user', { token: AccessToken, method: 'POST', body: {} });
    return { ...user, token: AccessToken };
  }

  async function create(token: string, body: unknown): Promise<Monitor> {
    const response = await app.api('/api/monitors', { token, method: 'POST', body });
    expect(response.status, JSON.stringify(await response.clone().json())).toBe(201);
    return monitorSchema.parse(await response.json());
  }

  test('create, list, read, change and delete a monitor; delete takes its matches along', async () => {
    const { token } = await signedInUser();
    expect(await (await app.api('/api/monitors', { token })).json()).toEqual([]);

    const monitor = await create(token, { query: '  pglite  ', name: 'Our database' });
    expect(monitor).toEqual({
      id: expect.any(String),
      name: 'Our database',
      query: 'pglite',
      sources: [...SOURCE_NAMES],
      matchableSources: [...SOURCE_NAMES],
      paused: false,
      emailMuted: false,
      relevanceThreshold: null,
      delivery: 'default',
      spikeAlerts: false,
      mutedThreads: [],
      createdAt: expect.stringMatching(/^\d{4}-/),
      updatedAt: expect.stringMatching(/^\d{4}-/),
      matchCount: 0,
      lastMatchAt: null,
      webhook: null,
      cappedThisHour: null,
    });
    const second = await create(token, {
      query: '"open source" -hiring',
      sources: ['reddit', 'reddit'],
      paused: true,
      emailMuted: true,
      delivery: 'weekly',
      spikeAlerts: true,
    });
    expect(second).toMatchObject({
      spikeAlerts: true,
      name: '',
      sources: ['reddit'],
      paused: true,
      emailMuted: true,
      delivery: 'weekly',
    });

    const listed = z
      .array(monitorSchema)
      .parse(await (await app.api('/api/monitors', { token })).json());
    expect(listed.map((m) => m.id)).toEqual([monitor.id, second.id]);
    expect(await (await app.api(`/api/monitors/${monitor.id}`, { token })).json()).toEqual(monitor);

    const patch = await app.api(`/api/monitors/${monitor.id}`, {
      token,
      method: 'PATCH',
      body: { paused: true, query: 'pglite OR "embedded postgres"', delivery: 'feed' },
    });
    expect(patch.status).toBe(200);
    const changed = monitorSchema.parse(await patch.json());
    expect(changed).toMatchObject({
      paused: true,
      query: 'pglite OR "embedded postgres"',
      delivery: 'feed',
    });
    expect(Date.parse(changed.updatedAt)).toBeGreaterThanOrEqual(Date.parse(monitor.updatedAt));

    // A match, then the delete removes the monitor and its match.
    await app.api(`/api/monitors/${monitor.id}`, {
      token,
      method: 'PATCH',
      body: { paused: false },
    });
    await deliverItems(app, [testItem({ title: 'PGlite 1.0 is out' })]);
    const withMatch = monitorSchema.parse(
      await (await app.api(`/api/monitors/${monitor.id}`, { token })).json(),
    );
    expect(withMatch.matchCount).toBe(1);
    expect(withMatch.lastMatchAt).not.toBeNull();
    const page = matchPageSchema.parse(
      await (await app.api(`/api/matches?monitorId=${monitor.id}`, { token })).json(),
    );
    expect(page.items).toHaveLength(1);

    const deleted = await app.api(`/api/monitors/${monitor.id}`, { token, method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await app.api(`/api/monitors/${monitor.id}`, { token })).status).toBe(404);
    const after = matchPageSchema.parse(await (await app.api('/api/matches', { token })).json());
    expect(after.items).toEqual([]);
    expect((await app.api(`/api/monitors/${monitor.id}`, { token, method: 'DELETE' })).status).toBe(
      404,
    );
  });

  test.each([
    ['a query that does not parse', { query: '"open source' }, 'details-position'],
    ['an unbalanced parenthesis', { query: 'rust OR (go' }, 'details-position'],
    ['a lone star', { query: '*' }, 'broad'],
    ['only a negation', { query: '-hiring' }, 'broad'],
    ['only stop words', { query: 'the' }, 'broad'],
    ['a missing query', {}, 'query'],
    ['an empty query', { query: '   ' }, 'query'],
    ['a query too long', { query: 'x'.repeat(501) }, 'query'],
    ['a name too long', { query: 'rust', name: 'n'.repeat(101) }, 'name'],
    ['an unknown source', { query: 'rust', sources: ['twitter'] }, 'sources.0'],
    ['no source', { query: 'rust', sources: [] }, 'sources'],
    ['a wrong type', { query: 'rust', paused: 'yes' }, 'paused'],
    ['an unknown field', { query: 'rust', owner: 'me' }, ''],
    ['a NUL in the query', { query: 'rust\u0000' }, 'query'],
    ['a control character in the query', { query: 'rust\u0007go' }, 'query'],
    ['a bidi override in the query', { query: 'rust \u202ego' }, 'query'],
    ['a NUL in the name', { query: 'rust', name: 'a\u0000b' }, 'name'],
    ['a line break in the name', { query: 'rust', name: 'Rust\r\nBcc: x' }, 'name'],
    ['a bidi override in the name', { query: 'rust', name: 'evil\u202etxt.exe' }, 'name'],
    ['a bidi isolate in the name', { query: 'rust', name: 'a\u2066b' }, 'name'],
  ])('POST with %s → 400', async (_what, body, expected) => {
    const { token } = await signedInUser();
    for (const path of ['/api/monitors', '/api/monitors/preview']) {
      if (path.endsWith('preview') && ('name' in body || 'paused' in body)) continue;
      const response = await app.api(path, { token, method: 'POST', body });
      expect(response.status, path).toBe(400);
      const error = await apiErrorOf(response);
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.message.length).toBeGreaterThan(10);
      if (expected === 'details-position') {
        const details = error.details as { position: number; message: string };
        expect(details.position).toEqual(expect.any(Number));
        expect(details.position).toBeGreaterThanOrEqual(0);
        expect(details.message).toEqual(expect.any(String));
      } else if (expected === 'broad') {
        expect(error.message).toMatch(/match almost everything/);
        expect(error.details).toEqual([{ path: 'query', message: expect.any(String) }]);
      } else if (expected !== '') {
        expect((error.details as { path: string }[])[0]?.path).toBe(expected);
      }
    }
  });

  test('the syntax error points at the character, counted from 0', async () => {
    const { token } = await signedInUser();
    const response = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { query: 'rust AND' },
    });
    const error = await apiErrorOf(response);
    expect(error.details).toEqual({ position: expect.any(Number), message: expect.any(String) });
    expect((error.details as { position: number }).position).toBeGreaterThanOrEqual(4);
    expect((error.details as { position: number }).position).toBeLessThanOrEqual(8);
  });

  test('PATCH validates like POST, and an empty change is refused', async () => {
    const { token } = await signedInUser();
    const monitor = await create(token, { query: 'rust' });
    for (const body of [
      {},
      { query: '(' },
      { query: '*' },
      { sources: [] },
      { id: 'x' },
      { query: 'rust\u0000' },
      { name: 'line\nbreak' },
      { name: '\u202eoverride' },
      { delivery: 'sometimes' },
      { unmuteThread: { source: 'nowhere', threadId: 'x' } },
      { delivery: null },
    ]) {
      const response = await app.api(`/api/monitors/${monitor.id}`, {
        token,
        method: 'PATCH',
        body,
      });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await apiErrorOf(response)).code).toBe('VALIDATION_FAILED');
    }
    const unchanged = monitorSchema.parse(
      await (await app.api(`/api/monitors/${monitor.id}`, { token })).json(),
    );
    expect(unchanged.query).toBe('rust');
  });

  test('a malformed id is 400; an unknown one is 404', async () => {
    const { token } = await signedInUser();
    expect((await app.api('/api/monitors/not-an-id', { token })).status).toBe(400);
    const unknown = await app.api('/api/monitors/00000000-0000-4000-8000-000000000000', { token });
    expect(unknown.status).toBe(404);
    expect((await apiErrorOf(unknown)).code).toBe('NOT_FOUND');
  });

  test('more than MAX_MONITORS_PER_USER monitors → 409, also when created at once', async () => {
    const { token } = await signedInUser();
    const answers = await Promise.all(
      ['alpha', 'bravo', 'charlie', 'delta', 'echo'].map((query) =>
        app.api('/api/monitors', { token, method: 'POST', body: { query } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 201, 409, 409]);
    const refused = answers.find((a) => a.status === 409);
    const error = await apiErrorOf(refused as Response);
    expect(error).toMatchObject({ code: 'CONFLICT', details: { limit: 3 } });
    expect(error.message).toMatch(/3 monitors/);
    expect(await (await app.api('/api/monitors', { token })).json()).toHaveLength(3);
  });

  test('another user’s monitor answers 404 on every route and is left unchanged', async () => {
    const owner = await signedInUser();
    const other = await signedInUser();
    const monitor = await create(owner.token, { query: 'secret project' });
    const path = `/api/monitors/${monitor.id}`;
    expect((await app.api(path, { token: other.token })).status).toBe(404);
    expect(
      (await app.api(path, { token: other.token, method: 'PATCH', body: { paused: true } })).status,
    ).toBe(404);
    expect((await app.api(path, { token: other.token, method: 'DELETE' })).status).toBe(404);
    expect(await (await app.api('/api/monitors', { token: other.token })).json()).toEqual([]);
    expect(await (await app.api(path, { token: owner.token })).json()).toEqual(monitor);
  });

  test('a monitor names the sites its query can match: site: and r/ narrow its sources', async () => {
    const { token } = await signedInUser();
    const sites = async (body: object) => (await create(token, body)).matchableSources;
    expect(await sites({ query: 'rust site:hackernews' })).toEqual(['hackernews']);
    // A DEV or Stack Overflow tag is a community too: r/rust reaches Reddit, DEV and Stack Overflow.
    expect(await sites({ query: 'r/rust release' })).toEqual(['reddit', 'devto', 'stackoverflow']);
    expect(await sites({ query: 'rust -site:reddit', sources: ['reddit', 'lobsters'] })).toEqual([
      'lobsters',
    ]);
    const listed = z
      .array(monitorSchema)
      .parse(await (await app.api('/api/monitors', { token })).json());
    expect(listed.map((m) => m.matchableSources)).toEqual([
      ['hackernews'],
      ['reddit', 'devto', 'stackoverflow'],
      ['lobsters'],
    ]);
  });

  test('every route needs a valid token', async () => {
    for (const [method, path] of [
      ['GET', '/api/monitors'],
      ['POST', '/api/monitors'],
      ['POST', '/api/monitors/preview'],
      ['GET', '/api/monitors/00000000-0000-4000-8000-000000000000'],
      ['PATCH', '/api/monitors/00000000-0000-4000-8000-000000000000'],
      ['DELETE', '/api/monitors/00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { query: 'rust' };
      const response = await app.api(path, { method, body });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect((await apiErrorOf(response)).code).toBe('UNAUTHORIZED');
    }
  });

  test('preview: what the query finds in the last 7 days, highlighted, with alerts a day', async () => {
    const { token } = await signedInUser();
    const day = 86_400_000;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * day).toISOString();
    await deliverItems(app, [
      testItem({ title: 'Zig 1.0 released', createdAt: at(0.1) }),
      testItem({ title: 'Why I left Zig', body: 'zig is hard', createdAt: at(2) }),
      testItem({ source: 'reddit', title: 'Zig on Reddit', createdAt: at(3) }),
      testItem({ title: 'Ziggurat architecture', createdAt: at(1) }),
      testItem({ title: 'Zig from last month', createdAt: at(20) }),
      testItem({ title: 'Café Zürich opens', createdAt: at(1) }),
      testItem({ title: 'Hiring: Zig developer', createdAt: at(1) }),
      testItem({ title: 'Oldest item in the store', createdAt: at(6.9) }),
    ]);
    const preview = async (body: unknown) => {
      const response = await app.api('/api/monitors/preview', { token, method: 'POST', body });
      expect(response.status).toBe(200);
      return monitorPreviewSchema.parse(await response.json());
    };

    const zig = await preview({ query: 'zig -hiring' });
    expect(zig.count).toBe(3);
    expect(zig.estimated).toBe(false);
    expect(zig.perDay).toBeCloseTo(3 / 6.9, 1);
    expect(zig.coveredHours).toBeCloseTo(6.9 * 24, 0);
    expect(zig.items.map((item) => item.title)).toEqual([
      'Zig 1.0 released',
      'Why I left Zig',
      'Zig on Reddit',
    ]);
    expect(zig.items[1]?.snippet).toBe('zig is hard');
    expect(zig.items[1]?.highlights).toEqual([[0, 3]]);

    // The forecast rests on what the chosen sites' items cover: Reddit's one item, 3 days.
    const reddit = await preview({ query: 'zig -hiring', sources: ['reddit'] });
    expect(reddit.count).toBe(1);
    expect(reddit.coveredHours).toBeCloseTo(3 * 24, 0);
    expect(reddit.perDay).toBeCloseTo(1 / 3, 1);
    expect((await preview({ query: 'zig*' })).count).toBe(5);
    expect((await preview({ query: 'cafe zurich' })).items.map((i) => i.title)).toEqual([
      'Café Zürich opens',
    ]);
    expect((await preview({ query: 'title:ziggurat' })).count).toBe(1);
    expect((await preview({ query: 'nothing-like-this' })).count).toBe(0);
  });

  test('preview of repo:owner/name: that GitHub repository’s items, whatever case its name is in', async () => {
    const { token } = await signedInUser();
    const at = new Date(Date.now() - 3_600_000).toISOString();
    await deliverItems(app, [
      testItem({
        source: 'github',
        community: 'BetamaxPy/Betamax',
        title: 'Cassette bug',
        createdAt: at,
      }),
      testItem({
        source: 'github',
        community: 'other/repo',
        title: 'Cassette bug too',
        createdAt: at,
      }),
      testItem({
        source: 'reddit',
        community: 'betamaxpy/betamax',
        title: 'Cassette bug?',
        createdAt: at,
      }),
    ]);
    const response = await app.api('/api/monitors/preview', {
      token,
      method: 'POST',
      body: { query: 'repo:betamaxpy/betamax cassette' },
    });
    expect(response.status).toBe(200);
    const preview = monitorPreviewSchema.parse(await response.json());
    expect(preview.items.map((item) => item.title)).toEqual(['Cassette bug']);
    const monitor = await create(token, { query: 'repo:betamaxpy/betamax' });
    expect(monitor.matchableSources).toEqual(['github']);
  });

  test('previews are limited per user: 429 with Retry-After beyond the limit, others unaffected', async () => {
    const flooder = await signedInUser();
    const other = await signedInUser();
    const preview = (token: string) =>
      app.api('/api/monitors/preview', { token, method: 'POST', body: { query: 'floodword' } });
    const answers: number[] = [];
    for (let i = 0; i < PREVIEWS_PER_MINUTE + 1; i++)
      answers.push((await preview(flooder.token)).status);
    expect(answers.filter((status) => status === 200)).toHaveLength(PREVIEWS_PER_MINUTE);
    const refused = await preview(flooder.token);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await apiErrorOf(refused)).code).toBe('RATE_LIMITED');
    expect((await preview(other.token)).status).toBe(200);
  });
});
