import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createHttpClient } from '../http/http-client.ts';
import { createGithubSource, type GithubCursor } from './connector.ts';

// The connector against a real HTTP server on loopback serving the recorded repository events,
// renumbered 1…N, newest first in pages, with an ETag and X-Poll-Interval as GitHub sends them.
const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const recorded = (
  JSON.parse(
    readFileSync(
      path.join(RECORDED, 'github-repo-events-sigmavirus24-github3py-2018-02-25.json'),
      'utf8',
    ),
  ) as Record<string, unknown>[]
).reverse();

let visible = 0;
let rateLimited = false;
const requests: { path: string; ifNoneMatch: string | undefined; auth: string | undefined }[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push({
      path: `${url.pathname}${url.search}`,
      ifNoneMatch: request.headers['if-none-match'] as string | undefined,
      auth: request.headers.authorization,
    });
    if (rateLimited) {
      const reset = String(Math.ceil(Date.now() / 1000) + 30);
      response
        .writeHead(403, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset })
        .end('{"message":"API rate limit exceeded"}');
      return;
    }
    const etag = `"v${visible}"`;
    const headers = { etag, 'x-poll-interval': '60', 'content-type': 'application/json' };
    if (request.headers['if-none-match'] === etag) return response.writeHead(304, headers).end();
    const perPage = Number(url.searchParams.get('per_page'));
    const page = Number(url.searchParams.get('page'));
    const newestFirst = recorded
      .slice(0, visible)
      .map((event, i) => ({ ...event, id: String(i + 1) }))
      .reverse();
    const body = newestFirst.slice((page - 1) * perPage, page * perPage);
    response.writeHead(200, headers).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
  rateLimited = false;
});

let clock = 1_000_000;
const source = createGithubSource({
  http: createHttpClient({ userAgent: 'earshot-test', attempts: 1 }),
  apiUrl: base || 'http://unset',
  token: 'ghp_test',
  pollIntervalMs: 1000,
  now: () => clock,
});
const read = (cursor: GithubCursor | null) =>
  createGithubSource({
    http: createHttpClient({ userAgent: 'earshot-test', attempts: 1 }),
    apiUrl: base,
    token: 'ghp_test',
    pollIntervalMs: 1000,
    now: () => clock,
  }).fetchNew(cursor, new AbortController().signal);

test('the first page, then every new event once across pages; 304 and X-Poll-Interval honoured', async () => {
  visible = 20;
  const first = await read(null);
  expect(first.cursor).toEqual({
    repos: [],
    newest: '20',
    etag: '"v20"',
    notBefore: clock + 60_000,
  });
  expect(requests).toEqual([
    { path: '/events?per_page=100&page=1', ifNoneMatch: undefined, auth: 'Bearer ghp_test' },
  ]);

  // Within the poll interval: no request at all.
  visible = 100;
  const early = await read(first.cursor);
  expect(early.items).toEqual([]);
  expect(requests).toHaveLength(1);

  // After it: the 80 new events, oldest first, the kinds not kept counted as skipped.
  clock += 60_000;
  const second = await read(first.cursor);
  expect(requests.slice(1).map((r) => [r.path, r.ifNoneMatch])).toEqual([
    ['/events?per_page=100&page=1', '"v20"'],
  ]);
  const kept = second.items.length + Object.values(second.skipped).reduce((a, b) => a + b, 0);
  expect(kept).toBe(80);
  expect(second.cursor.newest).toBe('100');
  const times = second.items.map((item) => item.createdAt);
  expect([...times].sort()).toEqual(times);

  // Nothing new: a conditional request answered 304, nothing read, the cursor kept.
  clock += 60_000;
  const third = await read(second.cursor);
  expect(third.items).toEqual([]);
  expect(requests.at(-1)?.ifNoneMatch).toBe('"v100"');
  expect(third.cursor.newest).toBe('100');
  expect(third.cursor.etag).toBe('"v100"');
});

test('out of the hour’s requests: a rate-limit fault that waits for the reset', async () => {
  rateLimited = true;
  const error = await read(null).catch((caught: unknown) => caught);
  expect(error).toMatchObject({ kind: 'rate-limited', status: 403 });
  const wait = (error as { retryAfterMs: number }).retryAfterMs;
  expect(wait).toBeGreaterThan(20_000);
  expect(wait).toBeLessThanOrEqual(31_000);
});

test('a stored cursor of another shape starts afresh', () => {
  expect(source.parseCursor({ instances: {} })).toBeNull();
  // A cursor stored before repositories were read: none yet.
  expect(source.parseCursor({ newest: '5', etag: null, notBefore: 0 })).toEqual({
    repos: [],
    newest: '5',
    etag: null,
    notBefore: 0,
  });
});
