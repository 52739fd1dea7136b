import path from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import { loadReplayCorpus } from '../../src/replay/corpus.ts';
import { type ReplayServer, startReplay } from '../../src/replay/replay-server.ts';
import { type BlueskyCursor, createBlueskySource } from '../../src/sources/bluesky/connector.ts';
import { blueskyReplay } from '../../src/sources/bluesky/replay.ts';
import type { RawRecord } from '../../src/sources/replay-site.ts';
import { SourceError } from '../../src/sources/source.ts';

// The connector against the replay's Jetstream: a real WebSocket on loopback sending the
// recorded post events (tests/fixtures/recorded/bluesky-jetstream-v1-*), looped with fresh keys.
const RECORDED = path.join(import.meta.dirname, '..', 'fixtures', 'recorded');
const corpus = loadReplayCorpus(RECORDED);

let replay: ReplayServer | null = null;
const controller = new AbortController();
afterAll(() => controller.abort());
afterEach(async () => {
  await replay?.close();
  replay = null;
});

const source = (options: { queueLimit?: number; batchSize?: number } = {}) =>
  createBlueskySource({
    url: `${(replay as ReplayServer).url.replace('http', 'ws')}/bluesky/subscribe`,
    pollIntervalMs: 50,
    overlapMs: 2000,
    ...options,
  });

/** What the replay revealed of the stream that is an item, by external id. */
const expected = (count: number) => {
  const records = corpus.sites.bluesky ?? [];
  return (replay as ReplayServer)
    .externalIds('bluesky', count)
    .filter((_, index) => blueskyReplay.keeps(records[index % records.length] as RawRecord));
};

/** Reads until `count` items came, as the loop does (storing each cursor it is handed). */
async function readAll(
  bluesky: ReturnType<typeof source>,
  count: number,
  start: BlueskyCursor | null = null,
) {
  const ids: string[] = [];
  let cursor = start;
  // Bounded by time, not by rounds: on a busy machine a round can take far longer than its 20 ms.
  const deadline = Date.now() + 30_000;
  while (ids.length < count && Date.now() < deadline) {
    const batch = await bluesky.fetchNew(cursor, controller.signal);
    ids.push(...batch.items.map((item) => item.externalId));
    cursor = batch.cursor;
    if (!batch.more) await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return { ids, cursor };
}

test('every revealed post once, oldest first, with the newest time_us as the cursor', async () => {
  replay = await startReplay({ corpus, loop: true, initial: 60, rate: 0 });
  const bluesky = source({ batchSize: 10 });
  const want = expected(60);
  const { ids, cursor } = await readAll(bluesky, want.length);
  expect(ids).toEqual(want);
  expect(cursor?.timeUs).toBe(Math.floor(replay.revealedAt('bluesky', 59) * 1000));
});

test('a slow reader: the queue stops at its limit (the socket is paused), and nothing is lost', async () => {
  replay = await startReplay({ corpus, loop: true, initial: 0, rate: 0 });
  const bluesky = source({ queueLimit: 100, batchSize: 50 });
  const first = await bluesky.fetchNew(null, controller.signal);
  replay.revealMore(2000);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(bluesky.stats().depth).toBeGreaterThanOrEqual(100);
  expect(bluesky.stats().depth).toBeLessThan(300);
  const { ids } = await readAll(bluesky, expected(2000).length, first.cursor);
  expect(ids.length).toBe(new Set(ids).size);
  expect(ids).toEqual(expected(2000));
  expect(bluesky.stats().maxDepth).toBeLessThan(300);
  expect(bluesky.stats().lagMs).toBeGreaterThanOrEqual(0);
});

test('a dropped connection, a frame that is not JSON, a refused connection: thrown once, then read again from the cursor', async () => {
  replay = await startReplay({ corpus, loop: true, initial: 20, rate: 0 });
  const bluesky = source({ batchSize: 5 });
  let { ids, cursor } = await readAll(bluesky, 5);
  // A drop and a non-JSON frame cut the live stream; a refusal (503) answers the reconnection.
  const faults = [
    { faults: [{ kind: 'drop' }], message: /closed the connection/u },
    { faults: [{ kind: 'html' }], message: /not JSON/u },
    // Taken by the reconnection's handshake this time (the frame above cut the stream).
    { faults: [{ kind: 'drop' }], message: /cannot reach .*socket hang up/u },
    { faults: [{ kind: 'status', status: 503 }], message: /cannot reach .*503/u },
  ] as const;
  for (const [step, { faults: queued, message }] of faults.entries()) {
    // A fault goes to whichever connection the replay sends to next: wait until the one the
    // last step cut is closed on the replay's side too, so it cannot take this step's fault.
    await expect.poll(() => replay?.openSockets(), { timeout: 10_000 }).toBe(step === 0 ? 1 : 0);
    for (const fault of queued) replay.fault('bluesky', fault);
    replay.revealMore(10);
    const error = await readAll(bluesky, 1000, cursor).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceError);
    expect(String((error as Error).message)).toMatch(message);
  }
  await replay.suspend();
  await expect(bluesky.fetchNew(cursor, controller.signal)).rejects.toThrow(/cannot reach/u);
  await replay.resume();
  // The batches read before each fault were handed over; the loop would have stored them.
  const want = expected(replay.revealed('bluesky'));
  const rest = await readAll(bluesky, want.length, cursor);
  ({ ids, cursor } = { ids: [...new Set([...ids, ...rest.ids])], cursor: rest.cursor });
  expect(ids.sort()).toEqual([...want].sort());
});

test('a batch the loop did not store is read again: the stream restarts from the cursor passed', async () => {
  replay = await startReplay({ corpus, loop: true, initial: 40, rate: 0 });
  const bluesky = source({ batchSize: 10 });
  const start = await bluesky.fetchNew(null, controller.signal);
  let lost = await bluesky.fetchNew(start.cursor, controller.signal);
  while (lost.items.length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    lost = await bluesky.fetchNew(start.cursor, controller.signal);
  }
  expect(lost.items.length).toBeGreaterThan(0);
  // As if storing `lost` failed: the loop passes the stored cursor (`start`) again.
  const { ids } = await readAll(bluesky, expected(40).length, start.cursor);
  for (const item of lost.items) expect(ids).toContain(item.externalId);
});
