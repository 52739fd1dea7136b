import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createHttpClient } from '../http/http-client.ts';
import type { SourceBatch } from '../source.ts';
import { createMastodonSource, idAfter, type MastodonCursor, PAGE } from './connector.ts';

// The connector against a real HTTP server on loopback serving the recorded 2017 timeline,
// renumbered 1…N (one instance's ids) and repeated so that there are more than two pages.
const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const recorded = JSON.parse(
  readFileSync(path.join(RECORDED, 'mastodon-timelines-tag-mastodon-2017-04-21.json'), 'utf8'),
) as Record<string, unknown>[];

let statuses: Record<string, unknown>[] = [];
function publish(count: number) {
  for (let i = 0; i < count; i++) {
    const n = statuses.length + 1;
    const original = recorded[(n - 1) % recorded.length] as Record<string, unknown>;
    statuses.push({ ...original, id: String(n), uri: `${String(original.uri)}#${n}` });
  }
}
const requests: { path: string; authorization: string | undefined }[] = [];
let refuseWithout: string | null = null;
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push({
      path: `${url.pathname}${url.search}`,
      authorization: request.headers.authorization,
    });
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (refuseWithout && request.headers.authorization !== `Bearer ${refuseWithout}`) {
      return send(401, { error: 'This method requires an authenticated user' });
    }
    if (url.pathname !== '/api/v1/timelines/public')
      return send(404, { error: 'Record not found' });
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const minId = url.searchParams.get('min_id');
    // Newest first; with min_id, the page just after it.
    const after = minId === null ? statuses : statuses.filter((s) => idAfter(String(s.id), minId));
    const page = minId === null ? after.slice(-limit) : after.slice(0, limit);
    send(200, [...page].reverse());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  statuses = [];
  requests.length = 0;
  refuseWithout = null;
});

const http = createHttpClient({ userAgent: 'earshot-test', attempts: 1 });
// Polling alone (the streaming API is streaming.test.ts's).
const source = (token?: string) =>
  createMastodonSource({
    http,
    instances: [{ url: base, token }],
    pollIntervalMs: 1000,
    streaming: false,
  });
const numbers = (batch: SourceBatch<MastodonCursor>) =>
  batch.items.map((item) => Number(item.externalId.split('#')[1]));
const read = (cursor: MastodonCursor | null, token?: string) =>
  source(token).fetchNew(cursor, new AbortController().signal);

test('a first start reads the latest page; then every status once, oldest first, page by page', async () => {
  publish(30);
  const first = await read(null);
  expect(numbers(first)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
  expect(first.cursor.instances).toEqual({ [new URL(base).host]: '30' });
  expect(requests[0]?.path).toBe(`/api/v1/timelines/public?local=true&limit=${PAGE}`);

  publish(PAGE * 2 + 5);
  const second = await read(first.cursor);
  expect(numbers(second)).toEqual(Array.from({ length: PAGE * 2 + 5 }, (_, i) => i + 31));
  expect(requests.slice(1).map((r) => r.path)).toEqual([
    `/api/v1/timelines/public?local=true&limit=${PAGE}&min_id=30`,
    `/api/v1/timelines/public?local=true&limit=${PAGE}&min_id=70`,
    `/api/v1/timelines/public?local=true&limit=${PAGE}&min_id=110`,
  ]);
  expect(second.more).toBe(false);

  // Nothing new: nothing read, the cursor where it was.
  const third = await read(second.cursor);
  expect(third.items).toEqual([]);
  expect(third.cursor).toEqual(second.cursor);
});

test('a stored cursor of another shape starts afresh', () => {
  expect(source().parseCursor({ articles: [1] })).toBeNull();
  expect(source().parseCursor({ instances: { 'a.example': '5' } })).toEqual({
    instances: { 'a.example': '5' },
  });
});

test('an instance that shows its timeline only to signed-in apps: auth error naming the setting; the token works', async () => {
  publish(3);
  refuseWithout = 'secret-token';
  await expect(read(null)).rejects.toMatchObject({
    kind: 'auth',
    message: expect.stringContaining('MASTODON_ACCESS_TOKENS'),
  });
  const batch = await read(null, 'secret-token');
  expect(batch.items).toHaveLength(3);
  expect(requests.at(-1)?.authorization).toBe('Bearer secret-token');
});

test('ids compare as numbers of any length', () => {
  expect(idAfter('109', '99')).toBe(true);
  expect(idAfter('99', '109')).toBe(false);
  expect(idAfter('108914327388663283', '108914327388663282')).toBe(true);
  expect(idAfter('5', '5')).toBe(false);
});
