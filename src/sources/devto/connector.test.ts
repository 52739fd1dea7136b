import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createHttpClient } from '../http/http-client.ts';
import type { SourceBatch } from '../source.ts';
import { createDevtoSource, type DevtoCursor } from './connector.ts';

// The connector against a real HTTP server on loopback: the recorded articles, and comment
// threads in the shape of Forem's published reference (no comment was recorded).
const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const recorded = JSON.parse(
  readFileSync(path.join(RECORDED, 'devto-articles-username-victoravelar-2019-09-03.json'), 'utf8'),
) as ({ id: number } & Record<string, unknown>)[];

const NOW = Date.parse('2026-11-26T12:00:00Z');
const articles = recorded.map((article, i) => ({
  ...article,
  published_at: new Date(NOW - (i + 1) * 3600_000).toISOString(),
}));
const comment = (code: string, minutes: number, children: unknown[] = []) => ({
  type_of: 'comment',
  id_code: code,
  created_at: new Date(NOW - 3600_000 + minutes * 60_000).toISOString(),
  body_html: `<p>comment ${code}</p>`,
  user: { name: 'Ada', username: 'ada' },
  children,
});
let threads: Record<string, unknown[] | 404> = {};
const requests: string[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(`${url.pathname}${url.search}`);
    const send = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/api/articles/latest') {
      const page = Number(url.searchParams.get('page') ?? 1);
      const counted = articles.map((article) => {
        const thread = threads[String(article.id)] ?? [];
        // A taken-down article still listed with its comments: the thread itself answers 404.
        return { ...article, comments_count: Array.isArray(thread) ? count(thread) : 9 };
      });
      return send(200, page === 1 ? counted : []);
    }
    if (url.pathname === '/api/comments') {
      const thread = threads[url.searchParams.get('a_id') ?? ''] ?? [];
      return thread === 404 ? send(404, { error: 'not found', status: 404 }) : send(200, thread);
    }
    send(404, { error: 'not found', status: 404 });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function count(nodes: unknown[]): number {
  return nodes.reduce<number>(
    (sum, node) => sum + 1 + count((node as { children: unknown[] }).children),
    0,
  );
}

const source = createDevtoSource({
  http: createHttpClient({ userAgent: 'test', attempts: 1 }),
  apiUrl: base || 'http://unset',
  pollIntervalMs: 1000,
  now: () => NOW,
});

test('articles once, then the comments of a young article as its count grows, across a restart', async () => {
  const devto = createDevtoSource({
    http: createHttpClient({ userAgent: 'test', attempts: 1 }),
    apiUrl: base,
    pollIntervalMs: 1000,
    now: () => NOW,
  });
  const signal = new AbortController().signal;
  const ids = (batch: SourceBatch<DevtoCursor>) =>
    batch.items.map((item) => [item.externalId, item.parentExternalId]);
  // A restart between calls: the cursor goes through JSON, as it is stored.
  const stored = (cursor: DevtoCursor) => devto.parseCursor(JSON.parse(JSON.stringify(cursor)));

  const first = await devto.fetchNew(null, signal);
  expect(ids(first)).toEqual([
    ['84712', null],
    ['164195', null],
    ['164198', null],
  ]);
  expect(requests.filter((r) => r.startsWith('/api/comments'))).toEqual([]);

  threads = { '164198': [comment('a1', 5, [comment('a2', 9)])] };
  const second = await devto.fetchNew(stored(first.cursor), signal);
  expect(ids(second)).toEqual([
    ['c_a1', '164198'],
    ['c_a2', 'c_a1'],
  ]);
  expect(second.items[0]?.permalink).toBe('https://dev.to/ada/comment/a1');
  expect(second.items[0]?.community).toBe('go');

  const third = await devto.fetchNew(stored(second.cursor), signal);
  expect(third.items).toEqual([]);

  threads = { '164198': [comment('a1', 5, [comment('a2', 9), comment('a3', 12)])] };
  const fourth = await devto.fetchNew(stored(third.cursor), signal);
  expect(ids(fourth)).toEqual([['c_a3', 'c_a1']]);

  // An article taken down: its thread answers 404 and is no longer followed, without a fault.
  threads = { '164198': 404, '164195': [comment('b1', 1)] };
  const fifth = await devto.fetchNew(stored(fourth.cursor), signal);
  expect(ids(fifth)).toEqual([['c_b1', '164195']]);
  expect(requests.at(-2)).toBe('/api/comments?a_id=164198');
  expect(fifth.cursor.threads.map((thread) => thread.id)).not.toContain(164198);
  const asked = requests.length;
  await devto.fetchNew(stored(fifth.cursor), signal);
  expect(requests.slice(asked)).not.toContain('/api/comments?a_id=164198');
});

test('a stored cursor of another shape starts afresh', () => {
  expect(source.parseCursor({ stories: [] })).toBeNull();
  expect(source.parseCursor({ articles: [1, 2], threads: [] })).toEqual({
    articles: [1, 2],
    threads: [],
  });
});
