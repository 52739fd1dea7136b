import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { z } from 'zod';
import { type DatabaseHandle, openDatabase, rowsOf } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { users } from '../../src/db/schema/users.ts';
import { REPLAY_STREAMS, type ReplayServer, startReplay } from '../../src/replay/replay-server.ts';
import { sourceHealthSchema } from '../../src/shared/source-health.ts';
import { SOURCE_NAMES } from '../../src/shared/sources.ts';
import { type AppProcess, createDataDir, startAppProcess } from '../support/app-process.ts';
import { expectedMatchKeys, storedMatchKeys } from '../support/expected-matches.ts';
import { replayEnv, waitFor } from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';

// The recorded data of each site through the real HTTP path and the real entry (`node
// src/main.ts`, embedded PGlite on disk): every replayed item is stored exactly once and every
// match made once, across a kill -9 in the middle of the stream and a restart, while the sites
// go on publishing; then every site is ok in /api/health. This is each site's kill -9 test; the
// per-site suites (site-replay-suite.ts) put each site through its faults.

const corpus = recordedCorpus();
const healthSchema = z.object({ sources: z.array(sourceHealthSchema) });
const RECORDS = 240;
const RATE = 10;
const USER = '00000000-0000-4000-8000-0000000000c1';
let replay: ReplayServer;
let app: AppProcess | null = null;
const dataDir = createDataDir({ migrated: true });

async function openData(): Promise<DatabaseHandle> {
  const handle = await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  await migrateDatabase(handle);
  return handle;
}

beforeAll(async () => {
  // Monitors first, while no app holds the embedded database.
  const handle = await openData();
  await handle.db.insert(users).values({ id: USER, email: 'replay@example.com' });
  await handle.db.insert(monitors).values([
    { userId: USER, query: 'the' },
    { userId: USER, query: 'google OR apple OR rust' },
    { userId: USER, query: 'lobsters', sources: ['lobsters'] },
  ]);
  await handle.close();
  // Looped with fresh ids, so that the sites with few recordings have as many as the others.
  replay = await startReplay({ corpus, loop: true, maxRecords: RECORDS, initial: 3, rate: 0 });
});
afterAll(async () => {
  await app?.stop('SIGKILL');
  await replay?.close();
});

// "the" matches most of two thousand items: above the hourly cap of a monitor (tested on its
// own), which would keep matches back.
const start = () =>
  startAppProcess({
    dataDir,
    env: {
      ...replayEnv(replay),
      SOURCE_TIMEOUT_SECONDS: '2',
      MONITOR_MATCHES_PER_HOUR: '100000',
    },
  });

test('each site: the replayed items once each, across kill -9 and a restart', async () => {
  app = await start();
  // Ten a second on every site: Lobsters lists its newest hundred of each kind, so the app, on a
  // busy machine, must not fall more than ten seconds behind (the real site writes about one a
  // minute).
  replay.setRate(RATE);
  // Mid-stream: some of every site revealed, most not.
  await waitFor(() => replay.revealed('hackernews') >= 30, 'the stream to get going');
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(app.output()).toMatch(/"msg":"leading"/u);
  const killed = await app.stop('SIGKILL');
  expect(killed.code).toBeNull();
  // While it is down every site goes on: thirty more each, however long the restart takes
  // (Lobsters lists its newest hundred, GitHub its newest 300: a slow restart on a busy machine
  // must not let more pile up than a site shows).
  replay.setRate(0);
  replay.revealMore(30);
  expect(replay.revealed('reddit')).toBeLessThan(RECORDS);

  app = await start();
  replay.setRate(RATE);
  await waitFor(() => replay.revealed('reddit') >= RECORDS, 'the whole stream', 60_000);
  replay.setRate(0);
  // Every site read again after the restart, and says so in /api/health (feeds as well, with
  // none to read).
  const running = app;
  await waitFor(
    async () => {
      const { sources } = healthSchema.parse(
        await (await fetch(`${running.url}/api/health`)).json(),
      );
      return SOURCE_NAMES.every(
        (source) => sources.find((entry) => entry.source === source)?.state === 'ok',
      );
    },
    'every site ok in /api/health',
    60_000,
  );
  // Catch up, then stop cleanly so the test can open the embedded database; on a loaded machine
  // catching up can take longer: start again (from the stored cursors) until every item is in
  // and matched.
  for (let round = 0; ; round++) {
    await new Promise((resolve) => setTimeout(resolve, 4000));
    await app.stop('SIGTERM');
    app = null;
    if ((await caughtUp()) || round >= 8) break;
    app = await start();
  }

  const handle = await openData();
  try {
    for (const source of REPLAY_STREAMS) {
      const expected = expectedExternalIds(replay, corpus, source, replay.revealed(source));
      expect(expected.length, `${source} items replayed`).toBeGreaterThan(100);
      const stored = rowsOf<{ external_id: string }>(
        await handle.db.execute(
          sql`select external_id from items where source = ${source} order by id`,
        ),
      ).map((row) => row.external_id);
      expect(new Set(stored).size, `${source} stored once each`).toBe(stored.length);
      expect(missing(expected, stored), `${source} items missing`).toEqual([]);
      expect(missing(stored, expected), `${source} items not in the replay`).toEqual([]);
    }
    const expectedMatches = await expectedMatchKeys(handle.db);
    expect(expectedMatches.length).toBeGreaterThan(50);
    expect(await storedMatchKeys(handle.db)).toEqual(expectedMatches);
  } finally {
    await handle.close();
  }
}, 300_000);

/** Every revealed item stored, and every stored item through the matcher. */
async function caughtUp(): Promise<boolean> {
  const handle = await openData();
  try {
    const [items] = rowsOf<{ n: number }>(
      await handle.db.execute(sql`select count(*)::int as n from items`),
    );
    if ((items?.n ?? 0) < expectedCount()) return false;
    const matched = await storedMatchKeys(handle.db);
    return matched.length >= (await expectedMatchKeys(handle.db)).length;
  } finally {
    await handle.close();
  }
}

function expectedCount(): number {
  return REPLAY_STREAMS.reduce(
    (sum, source) =>
      sum + expectedExternalIds(replay, corpus, source, replay.revealed(source)).length,
    0,
  );
}

function missing(wanted: readonly string[], have: readonly string[]): string[] {
  const set = new Set(have);
  return wanted.filter((id) => !set.has(id));
}
