import { desc, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { matches } from '../../src/db/schema/matches.ts';
import { listMatches } from '../../src/matches/list-matches.ts';
import { matchColumns, toMatch } from '../../src/matches/to-match.ts';
import {
  listMatchesQuerySchema,
  type Match,
  matchPageSchema,
  matchSchema,
  matchStatsSchema,
} from '../../src/shared/match.ts';
import { monitorSchema } from '../../src/shared/monitor.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// /api/matches: the feed, its filters and search, read state, dismissal and stats; matches are
// made by the pipeline's entry point from items, never inserted by hand.
describe('/api/matches', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function signedInUser() {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    await app.api('/api/user', { token: AccessToken, method: 'POST', body: {} });
    return { ...user, token: AccessToken };
  }
  async function monitor(token: string, query: string, extra: object = {}) {
    const response = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { query, ...extra },
    });
    expect(response.status).toBe(201);
    return monitorSchema.parse(await response.json());
  }
  async function page(token: string, query = '') {
    const response = await app.api(`/api/matches${query}`, { token });
    expect(response.status, await response.clone().text()).toBe(200);
    return matchPageSchema.parse(await response.json());
  }
  async function all(token: string, query = '', limit = 100): Promise<Match[]> {
    const found: Match[] = [];
    let cursor: string | null = null;
    do {
      const separator = query ? '&' : '?';
      const next = await page(
        token,
        `${query}${separator}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      );
      found.push(...next.items);
      cursor = next.nextCursor;
    } while (cursor);
    return found;
  }

  test('a page holds each match exactly as the API types it (toMatch), unknown fields none', async () => {
    const { token } = await signedInUser();
    await monitor(token, 'shapeword');
    await deliverItems(app, [
      testItem({ title: 'shapeword "quoted" \\ back\u0001slash', body: 'Ünïcode shapeword 😀' }),
      testItem({ source: 'reddit', title: null, body: 'a comment with shapeword', url: null }),
    ]);
    const response = await app.api('/api/matches?limit=1', { token });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const first = (await response.json()) as { items: Match[]; nextCursor: string };
    const second = (await (
      await app.api(`/api/matches?limit=1&cursor=${first.nextCursor}`, { token })
    ).json()) as { items: Match[]; nextCursor: string | null };
    expect(second.nextCursor).toBeNull();
    const ids = [...first.items, ...second.items].map((m) => Number(m.id));
    const rows = await app.database.db
      .select(matchColumns)
      .from(matches)
      .where(inArray(matches.id, ids))
      .orderBy(desc(matches.id));
    expect([...first.items, ...second.items]).toStrictEqual(rows.map(toMatch));
    expect(first.nextCursor).toBe(first.items[0]?.id);
  });

  test('the HTTP page (stored JSON as text) is the page listMatches reads for MCP, CSV and alert feeds', async () => {
    const { token, sub: userId } = await signedInUser();
    await monitor(token, 'textword');
    await deliverItems(app, [
      testItem({ title: 'textword one', body: 'a "quoted" body \\ with textword' }),
      testItem({ source: 'reddit', title: null, body: 'textword in a comment', url: null }),
      testItem({ source: 'lobsters', title: 'textword three' }),
    ]);
    const [rated, read] = (await page(token)).items;
    if (!rated || !read) throw new Error('expected three matches');
    const feedback = await app.api(`/api/matches/${rated.id}/feedback`, {
      token,
      method: 'PUT',
      body: { rating: 'relevant' },
    });
    expect(feedback.status).toBe(200);
    const marked = await app.api(`/api/matches/${read.id}`, {
      token,
      method: 'PATCH',
      body: { read: true },
    });
    expect(marked.status).toBe(200);
    const queries: Record<string, string>[] = [
      {},
      { sort: 'relevance' },
      { limit: '2' },
      { unread: 'false' },
    ];
    for (const query of queries) {
      const search = new URLSearchParams(query);
      const viaHttp = await page(token, `?${search}`);
      const parsed = listMatchesQuerySchema.parse(query);
      const direct = await listMatches({ db: app.database.db }, { userId, query: parsed });
      expect(viaHttp, JSON.stringify(query)).toStrictEqual(direct);
    }
    const ratedNow = (await page(token)).items.find((m) => m.id === rated.id);
    expect(ratedNow?.rating).toBe('relevant');
    expect((await page(token)).items.find((m) => m.id === read.id)?.read).toBe(true);
  });

  test('filters by monitor, source and unread; searches with q; newest first', async () => {
    const { token } = await signedInUser();
    const rust = await monitor(token, 'rust');
    const go = await monitor(token, 'golang');
    await deliverItems(app, [
      testItem({ title: 'Rust in the kernel', body: 'Linus merges more Rust drivers' }),
      testItem({ source: 'reddit', title: 'Learning Rust', body: 'borrow checker woes' }),
      testItem({ source: 'lobsters', title: 'Golang generics, a year later' }),
      testItem({ title: 'Rust and Golang compared', author: 'pike' }),
    ]);
    const everything = await page(token);
    // Stored source by source (Hacker News, then Reddit, then Lobsters); the newest first.
    expect(everything.items.map((m) => m.title)).toEqual([
      'Golang generics, a year later',
      'Learning Rust',
      'Rust and Golang compared',
      'Rust and Golang compared',
      'Rust in the kernel',
    ]);
    expect(everything.nextCursor).toBeNull();
    const ids = everything.items.map((m) => Number(m.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const kernel = everything.items.at(-1) as Match;
    expect(kernel).toMatchObject({
      monitorId: rust.id,
      source: 'hackernews',
      kind: 'post',
      snippet: 'Linus merges more Rust drivers',
      highlights: [[18, 22]],
      read: false,
    });

    expect((await page(token, `?monitorId=${go.id}`)).items).toHaveLength(2);
    expect((await page(token, '?source=reddit')).items.map((m) => m.title)).toEqual([
      'Learning Rust',
    ]);
    expect((await page(token, `?monitorId=${rust.id}&source=hackernews`)).items).toHaveLength(2);
    // q: every word, the last one as a prefix; accents and case do not matter.
    expect((await page(token, '?q=borrow')).items.map((m) => m.title)).toEqual(['Learning Rust']);
    expect((await page(token, '?q=BORR')).items.map((m) => m.title)).toEqual(['Learning Rust']);
    expect((await page(token, '?q=linus%20dr')).items).toHaveLength(1);
    expect((await page(token, '?q=pike')).items).toHaveLength(2);
    expect((await page(token, '?q=nothing%20here')).items).toEqual([]);
    expect((await page(token, '?q=%22%27%29(')).items).toEqual([]);
    expect((await page(token, `?q=rust&monitorId=${go.id}`)).items).toHaveLength(1);

    // Read state: one, then all of a monitor, then all.
    const read = await app.api(`/api/matches/${kernel.id}`, {
      token,
      method: 'PATCH',
      body: { read: true },
    });
    expect(read.status).toBe(200);
    expect(matchSchema.parse(await read.json())).toMatchObject({ id: kernel.id, read: true });
    expect((await page(token, '?unread=true')).items).toHaveLength(4);
    expect((await page(token, '?unread=false')).items.map((m) => m.id)).toEqual([kernel.id]);
    const unread = await app.api(`/api/matches/${kernel.id}`, {
      token,
      method: 'PATCH',
      body: { read: false },
    });
    expect(matchSchema.parse(await unread.json()).read).toBe(false);

    const markGo = await app.api('/api/matches/mark-read', {
      token,
      method: 'POST',
      body: { monitorId: go.id },
    });
    expect(await markGo.json()).toEqual({ updated: 2 });
    expect((await page(token, '?unread=true')).items).toHaveLength(3);
    const markAll = await app.api('/api/matches/mark-read', { token, method: 'POST', body: {} });
    expect(await markAll.json()).toEqual({ updated: 3 });
    expect((await page(token, '?unread=true')).items).toEqual([]);

    // Dismiss.
    const dismissed = await app.api(`/api/matches/${kernel.id}`, { token, method: 'DELETE' });
    expect(dismissed.status).toBe(204);
    expect((await page(token)).items.map((m) => m.id)).not.toContain(kernel.id);
    expect((await app.api(`/api/matches/${kernel.id}`, { token, method: 'DELETE' })).status).toBe(
      404,
    );
  });

  test('1,000 matches page without gaps or repeats, also while new matches arrive', async () => {
    const { token } = await signedInUser();
    await monitor(token, 'paging');
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) => testItem({ title: `paging story ${from + i}` }));
    await deliverItems(app, batch(0, 1000));

    const quiet = await all(token, '', 100);
    expect(quiet).toHaveLength(1000);
    expect(new Set(quiet.map((m) => m.id)).size).toBe(1000);

    // Page through again while 150 more arrive between pages: the older pages are unchanged.
    const seen: Match[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const next = await page(token, `?limit=37${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...next.items);
      cursor = next.nextCursor;
      pages += 1;
      if (pages % 5 === 0) await deliverItems(app, batch(1000 + pages * 10, 10));
    } while (cursor);
    expect(seen.map((m) => m.id)).toEqual(quiet.map((m) => m.id));
    expect(pages).toBe(Math.ceil(1000 / 37));
    const now = await all(token);
    expect(now.length).toBeGreaterThan(1000);
    expect(new Set(now.map((m) => m.id)).size).toBe(now.length);
  });

  test.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=ten', 'limit'],
    ['?cursor=abc', 'cursor'],
    ['?cursor=-5', 'cursor'],
    ['?monitorId=123', 'monitorId'],
    ['?source=twitter', 'source'],
    ['?unread=yes', 'unread'],
    [`?q=${'x'.repeat(201)}`, 'q'],
    ['?colour=red', ''],
  ])('GET /api/matches%s → 400 naming %s', async (query, field) => {
    const { token } = await signedInUser();
    const response = await app.api(`/api/matches${query}`, { token });
    expect(response.status).toBe(400);
    const error = (await apiErrorOf(response)) as { code: string; details: { path: string }[] };
    expect(error.code).toBe('VALIDATION_FAILED');
    if (field) expect(error.details[0]?.path).toBe(field);
  });

  test.each([
    ['PATCH', '/api/matches/1', {}],
    ['PATCH', '/api/matches/1', { read: 'yes' }],
    ['PATCH', '/api/matches/abc', { read: true }],
    ['DELETE', '/api/matches/0', undefined],
    ['POST', '/api/matches/mark-read', { monitorId: 'nope' }],
    ['POST', '/api/matches/mark-read', { everything: true }],
    ['GET', '/api/matches/stats?days=0', undefined],
    ['GET', '/api/matches/stats?days=91', undefined],
  ])('%s %s %o → 400', async (method, path, body) => {
    const { token } = await signedInUser();
    const response = await app.api(path, { token, method, body });
    expect(response.status).toBe(400);
    expect((await apiErrorOf(response)).code).toBe('VALIDATION_FAILED');
  });

  test('stats: matches per day and monitor in the user’s time zone', async () => {
    const { token } = await signedInUser();
    const a = await monitor(token, 'statsalpha');
    const b = await monitor(token, 'statsbravo');
    await deliverItems(app, [
      testItem({ title: 'statsalpha one' }),
      testItem({ title: 'statsalpha two' }),
      testItem({ title: 'statsbravo and statsalpha' }),
    ]);
    const today = (timeZone: string) =>
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }).format(new Date());

    const utc = matchStatsSchema.parse(
      await (await app.api('/api/matches/stats', { token })).json(),
    );
    expect(utc.timezone).toBe('UTC');
    expect(utc.days).toEqual(
      [
        { date: today('UTC'), monitorId: a.id, count: 3 },
        { date: today('UTC'), monitorId: b.id, count: 1 },
      ].sort((x, y) => x.monitorId.localeCompare(y.monitorId)),
    );
    await app.api('/api/user', { token, method: 'PUT', body: { timezone: 'Pacific/Kiritimati' } });
    const east = matchStatsSchema.parse(
      await (await app.api('/api/matches/stats?days=1', { token })).json(),
    );
    expect(east.timezone).toBe('Pacific/Kiritimati');
    expect(east.days.map((d) => d.date)).toEqual([
      today('Pacific/Kiritimati'),
      today('Pacific/Kiritimati'),
    ]);
  });

  test('two users never see, change or count each other’s matches', async () => {
    const alice = await signedInUser();
    const bob = await signedInUser();
    const hers = await monitor(alice.token, 'isolationword');
    await monitor(bob.token, 'otherword');
    await deliverItems(app, [testItem({ title: 'isolationword news' })]);
    const [match] = (await page(alice.token)).items;
    expect(match).toBeDefined();
    const id = (match as Match).id;

    expect((await page(bob.token)).items).toEqual([]);
    expect((await page(bob.token, `?monitorId=${hers.id}`)).items).toEqual([]);
    expect((await page(bob.token, '?q=isolationword')).items).toEqual([]);
    const patch = await app.api(`/api/matches/${id}`, {
      token: bob.token,
      method: 'PATCH',
      body: { read: true },
    });
    expect(patch.status).toBe(404);
    expect(
      (await app.api(`/api/matches/${id}`, { token: bob.token, method: 'DELETE' })).status,
    ).toBe(404);
    const marked = await app.api('/api/matches/mark-read', {
      token: bob.token,
      method: 'POST',
      body: { monitorId: hers.id },
    });
    expect(await marked.json()).toEqual({ updated: 0 });
    const bobStats = matchStatsSchema.parse(
      await (await app.api('/api/matches/stats', { token: bob.token })).json(),
    );
    expect(bobStats.days).toEqual([]);
    // Alice's match is as it was.
    expect((await page(alice.token)).items).toEqual([match]);
  });

  test('every route needs a valid token', async () => {
    for (const [method, path] of [
      ['GET', '/api/matches'],
      ['GET', '/api/matches/stats'],
      ['POST', '/api/matches/mark-read'],
      ['PATCH', '/api/matches/1'],
      ['DELETE', '/api/matches/1'],
      ['GET', '/api/events'],
    ] as const) {
      const response = await app.api(path, { method, token: 'not-a-token' });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect((await apiErrorOf(response)).code).toBe('UNAUTHORIZED');
    }
  });

  test('OpenAPI documents every monitors, matches and events route', async () => {
    const document = (await (await app.api('/api/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { content: object }> }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations).toEqual(
      expect.arrayContaining([
        'GET /monitors',
        'POST /monitors',
        'POST /monitors/preview',
        'GET /monitors/{id}',
        'PATCH /monitors/{id}',
        'DELETE /monitors/{id}',
        'GET /matches',
        'GET /matches/stats',
        'POST /matches/mark-read',
        'PATCH /matches/{id}',
        'DELETE /matches/{id}',
        'GET /events',
      ]),
    );
    expect(document.paths['/events']?.get?.responses['200']?.content).toHaveProperty(
      'text/event-stream',
    );
  });
});
