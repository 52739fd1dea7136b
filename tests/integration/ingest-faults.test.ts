import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import {
  type ReplayServer,
  type ReplayStream,
  startReplay,
} from '../../src/replay/replay-server.ts';
import {
  type RunningIngestion,
  runIngestion,
  storedIds,
  waitFor,
} from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Every fault of the issue, through the real ingestion loop and HTTP: the source reports it in
// its health, recovers by itself, and in the end holds exactly the replayed items, once each.

const corpus = recordedCorpus();
let handle: DatabaseHandle;
let replay: ReplayServer;
let running: RunningIngestion | null = null;

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});
beforeEach(async () => {
  await handle.db.execute(
    sql`truncate items, source_cursors, source_health restart identity cascade`,
  );
});
afterEach(async () => {
  await running?.stop();
  running = null;
  await replay?.close();
});

/**
 * A replay of `maxRecords` records a stream, `initial` of them visible from the start and the
 * rest within a second (sixty a second: several a poll), unless a test's subject is time.
 */
async function startSmallReplay(
  options: { initial?: number; rate?: number; tokenSeconds?: number } = {},
) {
  replay = await startReplay({
    corpus,
    maxRecords: 60,
    initial: options.initial ?? 20,
    rate: options.rate ?? 60,
    tokenSeconds: options.tokenSeconds,
  });
  return replay;
}

async function expectAllOnce(stream: ReplayStream, minus: number = 0): Promise<void> {
  const expected = expectedExternalIds(replay, corpus, stream, 60);
  await waitFor(
    async () => (await storedIds(handle, stream)).length >= expected.length - minus,
    `${stream} to store its items`,
  );
  const stored = await storedIds(handle, stream);
  expect(new Set(stored).size).toBe(stored.length);
  if (minus === 0) expect([...stored].sort()).toEqual([...expected].sort());
  else expect(expected.filter((id) => !stored.includes(id))).toHaveLength(minus);
}

describe('a site that fails', () => {
  test('connection refused: reported as failing, then recovered, nothing lost', async () => {
    await startSmallReplay({ initial: 10 });
    await replay.suspend();
    running = runIngestion(handle, replay, 'hackernews');
    await waitFor(() => running?.tracker.state === 'failing', 'the fault to show');
    expect(running.tracker.errors[0]).toMatch(/cannot reach .*ECONNREFUSED/u);
    await replay.resume();
    await expectAllOnce('hackernews');
    await waitFor(() => running?.tracker.state === 'ok', 'recovery');
    expect(running.tracker.states).toEqual(['failing', 'ok']);
  });

  test('500s: retried, reported while they last, recovered', async () => {
    await startSmallReplay();
    replay.fault('hackernews', { kind: 'status', status: 503 }, 4);
    running = runIngestion(handle, replay, 'hackernews');
    await waitFor(() => running?.tracker.state === 'failing', 'the fault to show');
    expect(running.tracker.errors[0]).toMatch(/answered 503/u);
    await expectAllOnce('hackernews');
    await waitFor(() => running?.tracker.state === 'ok', 'recovery');
  });

  test('429 with Retry-After: the next request waits as long as asked', async () => {
    await startSmallReplay();
    running = runIngestion(handle, replay, 'reddit');
    await waitFor(
      async () => (await storedIds(handle, 'reddit')).length > 0,
      'first items',
      60_000,
    );
    const before = replay.requestTimes('reddit').length;
    replay.fault('reddit', { kind: 'status', status: 429, retryAfter: '1' }, 3);
    await waitFor(() => running?.tracker.state === 'failing', 'the fault to show', 10_000);
    expect(running.tracker.errors[0]).toMatch(/answered 429/u);
    // The request after the loop's own wait (the third answer asked for a second too).
    await waitFor(() => replay.requestTimes('reddit').length > before + 3, 'the next request');
    await expectAllOnce('reddit');
    const times = replay.requestTimes('reddit').slice(before);
    // Three refused requests, each followed by at least the second asked for.
    for (let i = 1; i <= 3; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(950);
    }
  });

  test('answers slower than the timeout: reported, recovered', async () => {
    await startSmallReplay({ initial: 60 });
    replay.fault('lobsters', { kind: 'delay', ms: 1500 }, 3);
    running = runIngestion(handle, replay, 'lobsters');
    await waitFor(() => running?.tracker.state === 'failing', 'the fault to show');
    expect(running.tracker.errors[0]).toMatch(/no answer from .* within 500 ms/u);
    await waitFor(() => running?.tracker.state === 'ok', 'recovery');
    // A first start reads one page of each list (backfill), as on the live site.
    const stored = await storedIds(handle, 'lobsters');
    expect(stored.length).toBeGreaterThan(20);
    expect(new Set(stored).size).toBe(stored.length);
  });

  test('truncated and non-JSON bodies: logged as malformed, retried, nothing lost', async () => {
    // Lobsters asks one page at a time, so three faults in a row exhaust one request's attempts.
    await startSmallReplay({ initial: 60 });
    replay.fault('lobsters', { kind: 'truncate' }, 3);
    replay.fault('lobsters', { kind: 'html' }, 3);
    running = runIngestion(handle, replay, 'lobsters');
    await waitFor(() => (running?.tracker.errors.length ?? 0) >= 2, 'both faults to show');
    expect(running.tracker.errors[0]).toMatch(/sent \d+ bytes that are not JSON/u);
    expect(running.tracker.errors[1]).toMatch(/"<html><body>Bad gateway/u);
    await waitFor(() => running?.tracker.state === 'ok', 'recovery');
    const stored = await storedIds(handle, 'lobsters');
    expect(stored.length).toBeGreaterThan(20);
    expect(new Set(stored).size).toBe(stored.length);
  });

  test('a connection dropped without an answer: retried inside the request, never failing', async () => {
    await startSmallReplay();
    replay.fault('hackernews', { kind: 'drop' }, 2);
    running = runIngestion(handle, replay, 'hackernews');
    await expectAllOnce('hackernews');
    expect(running.tracker.states).not.toContain('failing');
  });
});

describe('bad items', () => {
  test.each([['hackernews'], ['reddit']] as const)(
    '%s: one item with a wrong-typed field is skipped and counted, never the batch',
    async (stream) => {
      await startSmallReplay({ initial: 10 });
      replay.fault(stream, { kind: 'wrong-type' }, 1);
      // Reddit: start the walk just below the first id, so the first answer carries items.
      running = runIngestion(handle, replay, stream, { REDDIT_BACKFILL_ITEMS: '100' });
      await expectAllOnce(stream, 1);
      await waitFor(async () => {
        const [row] = rowsOf<{ skipped: Record<string, number> }>(
          await handle.db.execute(sql`select skipped from source_health where source = ${stream}`),
        );
        return row?.skipped.invalid === 1;
      }, 'the skip to be counted in the health row');
    },
  );
});

describe('Reddit OAuth', () => {
  test('a token that expires is renewed before it does; the walk never fails', async () => {
    await startSmallReplay({ tokenSeconds: 2, rate: 15 });
    running = runIngestion(handle, replay, 'reddit');
    await expectAllOnce('reddit');
    await waitFor(() => replay.requests('token') >= 2, 'a renewal');
    expect(running.tracker.states).not.toContain('failing');
  });

  test('a revoked token: the 401 gets a new token at once; nothing lost', async () => {
    await startSmallReplay();
    running = runIngestion(handle, replay, 'reddit');
    await waitFor(
      async () => (await storedIds(handle, 'reddit')).length > 0,
      'first items',
      60_000,
    );
    replay.revokeTokens();
    // The walk goes on polling: its next request is refused and gets a new token.
    await waitFor(() => replay.requests('token') >= 2, 'a new token');
    await expectAllOnce('reddit');
    expect(replay.requests('token')).toBe(2);
    expect(running.tracker.states).not.toContain('failing');
  });

  test('refused credentials show as failing with a reason, without a crash', async () => {
    await startSmallReplay();
    running = runIngestion(handle, replay, 'reddit', { REDDIT_CLIENT_SECRET: 'wrong' });
    await waitFor(() => running?.tracker.state === 'failing', 'the fault to show');
    expect(running.tracker.errors[0]).toMatch(/access_token answered 401/u);
    expect(running.tracker.errors[0]).not.toContain('wrong');
  });
});
