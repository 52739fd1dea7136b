import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { type ReplayServer, startReplay } from '../../src/replay/replay-server.ts';
import { type AppProcess, createDataDir, startAppProcess } from '../support/app-process.ts';
import {
  type RunningIngestion,
  replayEnv,
  runIngestion,
  storedIds,
  waitFor,
} from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';
import { createTestDatabase } from '../support/test-database.ts';

// DEV through the real HTTP path: the recorded articles, looped with fresh ids so that there
// are many, reach the store exactly once across faults of every kind and across a kill -9 of
// the process that reads them.

const corpus = recordedCorpus();

/** Stops the replay's clock and waits until every revealed article is stored once. */
async function expectEveryArticleOnce(
  replay: ReplayServer,
  stored: () => Promise<string[]>,
): Promise<void> {
  replay.setRate(0);
  const expected = expectedExternalIds(replay, corpus, 'devto', replay.revealed('devto'));
  expect(expected.length).toBeGreaterThan(20);
  await waitFor(async () => (await stored()).length >= expected.length, 'every article', 30_000);
  const ids = await stored();
  expect(new Set(ids).size, 'stored once each').toBe(ids.length);
  expect([...ids].sort()).toEqual([...expected].sort());
}

describe('DEV faults', () => {
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

  test('429 with Retry-After, 5xx, a dropped connection, a body that is not JSON: failing, then ok, nothing lost', async () => {
    replay = await startReplay({ corpus, loop: true, initial: 10, rate: 4 });
    running = runIngestion(handle, replay, 'devto');
    await waitFor(async () => (await storedIds(handle, 'devto')).length >= 10, 'first articles');

    // Three answers in a row exhaust one request's attempts: the loop reports it and waits.
    const before = replay.requestTimes('devto').length;
    replay.fault('devto', { kind: 'status', status: 429, retryAfter: '1' }, 3);
    await waitFor(() => running?.tracker.state === 'failing', '429 to show');
    expect(running.tracker.errors.at(-1)).toMatch(/answered 429/u);
    const times = replay.requestTimes('devto').slice(before);
    for (let i = 1; i <= 2; i++) {
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(950);
    }
    await waitFor(() => running?.tracker.state === 'ok', 'recovery from 429');

    for (const fault of [
      { kind: 'status', status: 503 },
      { kind: 'drop' },
      { kind: 'html' },
      { kind: 'truncate' },
    ] as const) {
      const errors = running.tracker.errors.length;
      replay.fault('devto', fault, 3);
      await waitFor(() => (running?.tracker.errors.length ?? 0) > errors, `${fault.kind} to show`);
      expect(running.tracker.state).toBe('failing');
      await waitFor(() => running?.tracker.state === 'ok', `recovery from ${fault.kind}`);
    }
    expect(running.tracker.errors.join('\n')).toMatch(/answered 503/u);
    expect(running.tracker.errors.join('\n')).toMatch(/cannot reach|socket|closed/iu);
    expect(running.tracker.errors.join('\n')).toMatch(/not JSON/u);
    await expectEveryArticleOnce(replay, () => storedIds(handle, 'devto'));
    expect(running.tracker.state).toBe('ok');
  }, 120_000);
});

describe('DEV across kill -9', () => {
  const dataDir = createDataDir();
  let replay: ReplayServer;
  let app: AppProcess | null = null;
  const openData = async () => {
    const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
    await migrateDatabase(handle);
    return handle;
  };
  const stored = async () => {
    const handle = await openData();
    try {
      return await storedIds(handle, 'devto');
    } finally {
      await handle.close();
    }
  };
  const start = () =>
    startAppProcess({
      dataDir,
      env: { ...replayEnv(replay), SOURCES: 'devto', SOURCE_TIMEOUT_SECONDS: '2' },
      timeoutMs: 120_000,
    });
  const health = async () => {
    const response = await fetch(`${app?.url}/api/health`);
    const body = (await response.json()) as { sources: { source: string; state: string }[] };
    return body.sources.find((entry) => entry.source === 'devto')?.state;
  };
  afterAll(async () => {
    await app?.stop('SIGKILL');
    await replay?.close();
  });

  test('every article once, across kill -9 mid-stream and a restart; health ok in /api/health', async () => {
    // Migrated first, while no app holds the embedded database.
    await (await openData()).close();
    replay = await startReplay({ corpus, loop: true, initial: 5, rate: 0 });
    app = await start();
    await waitFor(async () => (await health()) === 'ok', 'DEV live in /api/health', 120_000);
    replay.setRate(4);
    await waitFor(() => replay.revealed('devto') >= 30, 'the stream to get going', 60_000);
    const killed = await app.stop('SIGKILL');
    expect(killed.code).toBeNull();

    app = await start();
    await waitFor(() => replay.revealed('devto') >= 60, 'more of the stream', 120_000);
    await waitFor(async () => (await health()) === 'ok', 'DEV live again', 120_000);
    replay.setRate(0);
    // Catch up, then stop so that the test can open the embedded database.
    const expected = expectedExternalIds(replay, corpus, 'devto', replay.revealed('devto'));
    for (let round = 0; ; round++) {
      await new Promise((resolve) => setTimeout(resolve, 3000));
      await app.stop('SIGTERM');
      app = null;
      if ((await stored()).length >= expected.length || round >= 5) break;
      app = await start();
    }
    await expectEveryArticleOnce(replay, stored);
  }, 600_000);
});
