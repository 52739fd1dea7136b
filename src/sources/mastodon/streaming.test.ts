import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, expect, test } from 'vitest';
import { createHttpClient } from '../http/http-client.ts';
import type { SourceBatch } from '../source.ts';
import { createMastodonSource, idAfter, type MastodonCursor } from './connector.ts';

// The streaming API against a real HTTP server on loopback: a timeline to poll (the recorded 2017
// statuses, renumbered as snowflakes after the recorded stream's) and server-sent events, which
// begin with the recorded stream of 2022 (two updates, a delete, two edits) and then push what
// is published.
const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const recorded = JSON.parse(
  readFileSync(path.join(RECORDED, 'mastodon-timelines-tag-mastodon-2017-04-21.json'), 'utf8'),
) as Record<string, unknown>[];
const recordedStream = readFileSync(path.join(RECORDED, 'mastodon-streaming-sse-2022.txt'), 'utf8');
const FIRST_ID = 108_914_400_000_000_000n;

let statuses: Record<string, unknown>[] = [];
let streaming: 'serve' | 'refuse' = 'serve';
const clients = new Set<ServerResponse>();
const requests: string[] = [];
let server: Server;
let base = '';

/** Publishes `count` statuses; pushed to the open streams unless `quietly`. */
function publish(count: number, quietly = false) {
  for (let i = 0; i < count; i++) {
    const n = statuses.length + 1;
    const original = recorded[(n - 1) % recorded.length] as Record<string, unknown>;
    const status = {
      ...original,
      id: String(FIRST_ID + BigInt(n)),
      uri: `${String(original.uri)}#${n}`,
    };
    statuses.push(status);
    if (!quietly) {
      for (const client of clients)
        client.write(`event: update\ndata: ${JSON.stringify(status)}\n\n`);
    }
  }
}

function stream(request: IncomingMessage, response: ServerResponse) {
  if (streaming === 'refuse') {
    response
      .writeHead(401, { 'content-type': 'application/json' })
      .end('{"error":"Error: Missing access token"}');
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  response.write(recordedStream.endsWith('\n\n') ? recordedStream : `${recordedStream}\n\n`);
  response.write(':thump\n\n');
  clients.add(response);
  request.on('close', () => clients.delete(response));
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(url.pathname);
    if (url.pathname === '/api/v1/streaming/public/local') return stream(request, response);
    const minId = url.searchParams.get('min_id');
    const after = minId === null ? statuses : statuses.filter((s) => idAfter(String(s.id), minId));
    const limit = Number(url.searchParams.get('limit') ?? 20);
    const page = minId === null ? after.slice(-limit) : after.slice(0, limit);
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify([...page].reverse()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  statuses = [];
  requests.length = 0;
  streaming = 'serve';
});
const abort = new AbortController();
afterEach(() => {
  for (const client of clients) client.destroy();
});
afterAll(() => abort.abort());

const create = () =>
  createMastodonSource({
    http: createHttpClient({ userAgent: 'earshot-test', attempts: 1 }),
    instances: [{ url: base }],
    pollIntervalMs: 100,
  });
const numbers = (batch: SourceBatch<MastodonCursor>) =>
  batch.items.map((item) => Number(item.externalId.split('#')[1] ?? 0));
const timelineRequests = () => requests.filter((r) => r === '/api/v1/timelines/public').length;
async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('caught up by a poll, then what the stream pushes without a request; a drop goes back to polling from the cursor, nothing lost', async () => {
  const source = create();
  publish(5);
  const first = await source.fetchNew(null, abort.signal);
  expect(numbers(first)).toEqual([1, 2, 3, 4, 5]);
  await until(() => clients.size === 1, 'the stream to open');

  // A poll that began with the stream open: caught up, and the stream's statuses so far too (the
  // recorded stream's two updates; its delete and edits are not statuses).
  const second = await source.fetchNew(first.cursor, abort.signal);
  expect(second.items.map((item) => item.externalId)).toEqual([
    'https://letsalllovela.in/objects/e9cebb0c-7c75-414f-9608-20b5628e52d7',
    expect.any(String),
  ]);
  expect(source.status?.().note).toBe('streaming');

  // Streaming: no more polls.
  const polled = timelineRequests();
  publish(3);
  let cursor = second.cursor;
  const seen: number[] = [];
  const deadline = Date.now() + 3000;
  while (seen.length < 3 && Date.now() < deadline) {
    const batch = await source.fetchNew(cursor, abort.signal);
    seen.push(...numbers(batch));
    cursor = batch.cursor;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(seen).toEqual([6, 7, 8]);
  expect(timelineRequests()).toBe(polled);

  // The stream drops while two are published: the next read polls from the cursor.
  for (const client of clients) client.destroy();
  await until(() => source.status?.().note !== 'streaming', 'the drop to be seen');
  publish(2, true);
  const after = await source.fetchNew(cursor, abort.signal);
  expect(numbers(after)).toEqual([9, 10]);
  expect(timelineRequests()).toBe(polled + 1);
});

test('a batch that was not stored is read again: the stream gives way to a poll from the stored cursor', async () => {
  const source = create();
  publish(2);
  const first = await source.fetchNew(null, abort.signal);
  await until(() => clients.size === 1, 'the stream to open');
  const second = await source.fetchNew(first.cursor, abort.signal);
  publish(2);
  let batch = second;
  while (numbers(batch).filter((n) => n > 2).length === 0) {
    batch = await source.fetchNew(second.cursor, abort.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(numbers(batch)).toEqual([3, 4]);
  // The store failed: the loop passes the cursor it had. The statuses come again, by a poll.
  const polled = timelineRequests();
  const again = await source.fetchNew(second.cursor, abort.signal);
  expect(numbers(again)).toEqual([3, 4]);
  expect(timelineRequests()).toBe(polled + 1);
});

test('an instance that refuses streaming is polled, and not asked again at once', async () => {
  streaming = 'refuse';
  const source = create();
  publish(3);
  const first = await source.fetchNew(null, abort.signal);
  await until(() => source.status?.().note?.includes('401') ?? false, 'the refusal');
  expect(source.status?.().note).toMatch(/^polling .+ \(streaming answered 401\)$/u);
  publish(2);
  const second = await source.fetchNew(first.cursor, abort.signal);
  expect(numbers(second)).toEqual([4, 5]);
  expect(requests.filter((r) => r === '/api/v1/streaming/public/local')).toHaveLength(1);
});
