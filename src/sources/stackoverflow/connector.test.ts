import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createHttpClient } from '../http/http-client.ts';
import { SourceError } from '../source.ts';
import {
  createStackExchangeSource,
  describeQuota,
  type StackExchangeCursor,
  spreadMs,
} from './connector.ts';

// The connector against a real HTTP server on loopback that answers in the API's wrapper, with
// records and errors built from the reference documentation (NOT recorded; decision 0041).
const REFERENCE = path.join(
  import.meta.dirname,
  '..',
  '..',
  '..',
  'tests',
  'fixtures',
  'reference',
);
const throttle = JSON.parse(
  readFileSync(path.join(REFERENCE, 'stackexchange-error-throttle-violation.json'), 'utf8'),
) as unknown;

type Answer = { status?: number; body: unknown };
const NOW = Date.parse('2026-11-26T12:00:00Z');
const second = Math.floor(NOW / 1000);
const question = (id: number, at: number) => ({
  question_id: id,
  title: `question ${id}`,
  body: `<p>body ${id}</p>`,
  tags: ['rust'],
  creation_date: at,
});
const wrapper = (items: unknown[], extra: Record<string, unknown> = {}) => ({
  items,
  has_more: false,
  quota_max: 10_000,
  quota_remaining: 9_000,
  ...extra,
});

let answers: Record<string, (query: URLSearchParams) => Answer> = {};
const requests: string[] = [];
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(`${url.pathname}${url.search}`);
    const answer = answers[url.pathname]?.(url.searchParams) ?? { body: wrapper([]) };
    response
      .writeHead(answer.status ?? 200, { 'content-type': 'application/json' })
      .end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/2.3`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  answers = {};
  requests.length = 0;
});

let clock = NOW;
const create = (key?: string) =>
  createStackExchangeSource({
    http: createHttpClient({ userAgent: 'test', attempts: 1 }),
    apiUrl: base,
    sites: ['stackoverflow'],
    key,
    pollIntervalMs: 1000,
    now: () => clock,
  });
const signal = new AbortController().signal;
// A restart between calls: the cursor goes through JSON, as it is stored.
const stored = (cursor: StackExchangeCursor) =>
  create().parseCursor(JSON.parse(JSON.stringify(cursor)));

describe('Stack Exchange connector', () => {
  test('reads each method in creation order from its cursor; a post of an already-read second is read once, across a restart', async () => {
    clock = NOW;
    let questions = [question(1, second - 30), question(2, second - 10)];
    answers['/2.3/questions'] = (query) => ({
      body: wrapper(questions.filter((q) => q.creation_date >= Number(query.get('min')))),
    });
    const source = create('app-key');
    const first = await source.fetchNew(null, signal);
    expect(first.items.map((item) => item.externalId)).toEqual([
      'stackoverflow/1',
      'stackoverflow/2',
    ]);
    const asked = new URL(`http://x${requests[0]}`).searchParams;
    expect(Object.fromEntries(asked)).toMatchObject({
      site: 'stackoverflow',
      sort: 'creation',
      order: 'asc',
      filter: 'withbody',
      key: 'app-key',
      // Ten minutes back on a first start, less the overlap.
      min: String(second - 660),
      fromdate: String(second - 660),
    });
    expect(requests.map((r) => r.split('?')[0])).toEqual([
      '/2.3/questions',
      '/2.3/answers',
      '/2.3/comments',
    ]);

    // Another post of the newest second read, and a later one: both new, nothing twice.
    questions = [...questions, question(3, second - 10), question(4, second - 5)];
    clock = NOW + 1000;
    const second_ = await source.fetchNew(stored(first.cursor), signal);
    expect(second_.items.map((item) => item.externalId)).toEqual([
      'stackoverflow/3',
      'stackoverflow/4',
    ]);
    expect(new URL(`http://x${requests[3]}`).searchParams.get('min')).toBe(
      String(second - 10 - 60),
    );
    const third = await source.fetchNew(stored(second_.cursor), signal);
    expect(third.items).toEqual([]);
  });

  test('pages while has_more; more waiting than three pages says more', async () => {
    clock = NOW;
    answers['/2.3/answers'] = (query) => {
      const page = Number(query.get('page'));
      const items = Array.from({ length: 100 }, (_, i) => ({
        answer_id: page * 1000 + i,
        question_id: 7,
        body: 'x',
        creation_date: second - 100 + page,
      }));
      return { body: wrapper(items, { has_more: true }) };
    };
    const batch = await create().fetchNew(null, signal);
    expect(batch.items).toHaveLength(300);
    expect(batch.more).toBe(true);
    expect(requests.filter((r) => r.startsWith('/2.3/answers'))).toHaveLength(3);
  });

  test('a backoff keeps that method alone quiet for as long as it says', async () => {
    clock = NOW;
    answers['/2.3/comments'] = () => ({ body: wrapper([], { backoff: 30 }) });
    const source = create();
    const first = await source.fetchNew(null, signal);
    expect(first.cursor.sites.stackoverflow?.comments.notBefore).toBe(NOW + 30_000);
    requests.length = 0;
    clock = NOW + 10_000;
    const second_ = await source.fetchNew(stored(first.cursor), signal);
    expect(requests.map((r) => r.split('?')[0])).toEqual(['/2.3/questions', '/2.3/answers']);
    requests.length = 0;
    clock = NOW + 31_000;
    await source.fetchNew(stored(second_.cursor), signal);
    expect(requests.map((r) => r.split('?')[0])).toContain('/2.3/comments');
  });

  test('the day’s requests running short spread the polls to midnight UTC, and health says so', async () => {
    clock = NOW;
    answers['/2.3/comments'] = () => ({
      body: wrapper([], { quota_max: 300, quota_remaining: 30 }),
    });
    const source = create();
    const batch = await source.fetchNew(null, signal);
    // 12 hours left, 30 requests, 3 a poll: a poll every 72 minutes.
    expect(batch.cursor.notBefore).toBe(NOW + 72 * 60_000);
    expect(source.status?.().note).toBe(
      'requests running short: 30 of 300 left today, a poll every 72 min (STACKEXCHANGE_KEY raises the day’s 300 requests to 10,000)',
    );
    requests.length = 0;
    clock = NOW + 60 * 60_000;
    const early = await source.fetchNew(stored(batch.cursor), signal);
    expect(requests).toEqual([]);
    expect(early.items).toEqual([]);
    expect(spreadMs({ max: 300, remaining: 0 }, 3, NOW)).toBe(12 * 3600_000);
    expect(spreadMs({ max: 300, remaining: 200 }, 3, NOW)).toBe(0);
    expect(describeQuota({ max: 10_000, remaining: 0 }, 1, true)).toBe(
      'out of requests until midnight UTC',
    );
  });

  test('errors come as a 400 with their kind: a throttle violation waits as its message says', async () => {
    clock = NOW;
    answers['/2.3/questions'] = () => ({ status: 400, body: throttle });
    const error = await create()
      .fetchNew(null, signal)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceError);
    expect(error).toMatchObject({ kind: 'rate-limited', retryAfterMs: 3_600_000 });
    expect((error as Error).message).toMatch(/throttle_violation \(502\)/u);

    answers['/2.3/questions'] = () => ({
      status: 400,
      body: { error_id: 400, error_name: 'bad_parameter', error_message: 'key' },
    });
    await expect(create('wrong').fetchNew(null, signal)).rejects.toMatchObject({ kind: 'auth' });
    answers['/2.3/questions'] = () => ({ body: { items: 'not a list' } });
    await expect(create().fetchNew(null, signal)).rejects.toMatchObject({ kind: 'malformed' });
  });

  test('a stored cursor of another shape starts afresh', () => {
    expect(create().parseCursor({ articles: [] })).toBeNull();
    expect(create().parseCursor(null)).toBeNull();
  });
});
