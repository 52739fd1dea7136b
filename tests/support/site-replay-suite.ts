import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import {
  type ReplayFault,
  type ReplayServer,
  startReplay,
} from '../../src/replay/replay-server.ts';
import type { SourceName } from '../../src/shared/sources.ts';
import { type RunningIngestion, runIngestion, storedIds, waitFor } from './ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from './replay-corpus.ts';
import { createTestDatabase } from './test-database.ts';

/** Stands in for `test` where a test does not apply: defines nothing. */
const noTest = (_name: string, _run: () => Promise<void>, _timeoutMs?: number): void => {};

/**
 * A site through the real HTTP path (docs/ARCHITECTURE.md, "Tests"): its recorded items,
 * looped by its replay with fresh ids so that there are many, reach the store exactly once
 * across faults of every kind (429 with Retry-After, 5xx, a dropped connection, a body that is
 * not JSON, a truncated one). Every site across a kill -9 of the real entry, with the others:
 * ingest-replay.test.ts.
 */
export function describeSiteReplay(
  source: SourceName,
  label: string,
  options: { readonly transport?: 'http' | 'websocket' } = {},
): void {
  const websocket = options.transport === 'websocket';
  const corpus = recordedCorpus();

  /** Stops the replay's clock and waits until every revealed article is stored once. */
  async function expectEveryItemOnce(
    replay: ReplayServer,
    stored: () => Promise<string[]>,
  ): Promise<void> {
    replay.setRate(0);
    const expected = expectedExternalIds(replay, corpus, source, replay.revealed(source));
    expect(expected.length).toBeGreaterThan(20);
    await waitFor(async () => (await stored()).length >= expected.length, 'every item', 30_000);
    const ids = await stored();
    expect(new Set(ids).size, 'stored once each').toBe(ids.length);
    expect([...ids].sort()).toEqual([...expected].sort());
  }

  describe(`${label} faults`, () => {
    let handle: DatabaseHandle;
    let replay: ReplayServer;
    let running: RunningIngestion | null = null;
    beforeAll(async () => {
      handle = await createTestDatabase();
    });
    afterAll(async () => {
      await handle.close();
    });
    afterEach(async () => {
      await running?.stop();
      running = null;
      await replay?.close();
      await handle.db.execute(
        sql`truncate items, source_cursors, source_health restart identity cascade`,
      );
    });

    /** The replay, looping, and the source's loop reading it, once the first items are in. */
    async function startRunning() {
      const started = await startReplay({ corpus, loop: true, initial: 10, rate: 4 });
      const ingesting = runIngestion(handle, started, source);
      await waitFor(async () => (await storedIds(handle, source)).length >= 10, 'the first items');
      return { replay: started, running: ingesting };
    }

    /** Queues each step's faults (three of each unless `times` says) and waits for failing, then ok. */
    async function failThenRecover(
      ingesting: RunningIngestion,
      server: ReplayServer,
      steps: readonly (readonly (ReplayFault & { readonly times?: number })[])[],
    ): Promise<void> {
      for (const faults of steps) {
        const errors = ingesting.tracker.errors.length;
        for (const { times = 3, ...fault } of faults)
          server.fault(source, fault as ReplayFault, times);
        const kind = faults.at(-1)?.kind;
        await waitFor(() => ingesting.tracker.errors.length > errors, `${kind} to show`);
        expect(ingesting.tracker.state).toBe('failing');
        await waitFor(() => ingesting.tracker.state === 'ok', `recovery from ${kind}`);
      }
    }

    // A WebSocket has no Retry-After or body: its faults are a dropped connection, a frame that
    // is not JSON, a refused upgrade (503) and a server that is gone (connection refused).
    // Defined only for the transport it is about, so no suite reports a skipped test.
    (websocket ? test : noTest)(
      'a dropped connection, a frame that is not JSON, a refused upgrade, a server gone: failing, then ok, nothing lost',
      async () => {
        ({ replay, running } = await startRunning());
        // A refused upgrade needs a reconnection: a drop first.
        await failThenRecover(running, replay, [
          [{ kind: 'drop' }],
          [{ kind: 'html' }],
          [
            { kind: 'drop', times: 1 },
            { kind: 'status', status: 503 },
          ],
        ]);
        const errors = running.tracker.errors.length;
        await replay.suspend();
        // The live connection drops, then a reconnection is refused.
        await waitFor(
          () => (running?.tracker.errors.length ?? 0) > errors + 1,
          'the refusal to show',
        );
        expect(running.tracker.state).toBe('failing');
        await replay.resume();
        await waitFor(() => running?.tracker.state === 'ok', 'recovery from the refusal');
        const all = running.tracker.errors.join('\n');
        expect(all).toMatch(/closed the connection|socket hang up/u);
        expect(all).toMatch(/not JSON/u);
        expect(all).toMatch(/503/u);
        expect(all).toMatch(/ECONNREFUSED/u);
        // A burst after the faults, so that there are many.
        replay.revealMore(30);
        await expectEveryItemOnce(replay, () => storedIds(handle, source));
        expect(running.tracker.state).toBe('ok');
      },
      120_000,
    );

    (websocket ? noTest : test)(
      '429 with Retry-After, 5xx, a dropped connection, a body that is not JSON: failing, then ok, nothing lost',
      async () => {
        ({ replay, running } = await startRunning());

        // Three answers in a row exhaust one request's attempts: the loop reports it and waits.
        // The first asks for a second, which the next attempt waits out (the retries' own
        // backoff is 20 ms here); the others ask for no wait, so that one second is all it costs.
        const before = replay.requestTimes(source).length;
        replay.fault(source, { kind: 'status', status: 429, retryAfter: '1' }, 1);
        replay.fault(source, { kind: 'status', status: 429, retryAfter: '0' }, 2);
        await waitFor(() => running?.tracker.state === 'failing', '429 to show');
        expect(running.tracker.errors.at(-1)).toMatch(/answered 429/u);
        const times = replay.requestTimes(source).slice(before);
        expect((times[1] ?? 0) - (times[0] ?? 0)).toBeGreaterThanOrEqual(950);
        await waitFor(() => running?.tracker.state === 'ok', 'recovery from 429');

        await failThenRecover(running, replay, [
          [{ kind: 'status', status: 503 }],
          [{ kind: 'drop' }],
          [{ kind: 'html' }],
          [{ kind: 'truncate' }],
        ]);
        expect(running.tracker.errors.join('\n')).toMatch(/answered 503/u);
        expect(running.tracker.errors.join('\n')).toMatch(/cannot reach|socket|closed/iu);
        expect(running.tracker.errors.join('\n')).toMatch(/not JSON/u);
        // A burst after the faults, so that there are many however quickly they passed.
        replay.revealMore(30);
        await expectEveryItemOnce(replay, () => storedIds(handle, source));
        expect(running.tracker.state).toBe('ok');
      },
      120_000,
    );
  });
}
