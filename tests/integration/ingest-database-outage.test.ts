import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ReplayServer, startReplay } from '../../src/replay/replay-server.ts';
import { runIngestion, storedIds, waitFor } from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';
import { adminQuery, createServerDatabase } from '../support/server-database.ts';

// The database briefly unreachable (every connection cut and new ones refused for a while, on
// the PostgreSQL server): the source reports it, recovers by itself, and loses nothing.

const corpus = recordedCorpus();
let database: Awaited<ReturnType<typeof createServerDatabase>>;
let replay: ReplayServer;

beforeAll(async () => {
  database = await createServerDatabase();
  replay = await startReplay({ corpus, maxRecords: 200, initial: 10, rate: 40 });
});
afterAll(async () => {
  await adminQuery(`alter database ${database.name} allow_connections true`).catch(() => {});
  await replay?.close();
  await database?.drop();
});

test('database unreachable for two seconds: reported as failing, recovered, nothing lost', async () => {
  const running = runIngestion(database.handle, replay, 'reddit', { REDDIT_BACKFILL_ITEMS: '100' });
  try {
    await waitFor(
      async () => (await storedIds(database.handle, 'reddit')).length > 20,
      'first items',
    );
    await adminQuery(`alter database ${database.name} allow_connections false`);
    await adminQuery(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database.name}'`,
    );
    await waitFor(() => running.tracker.state === 'failing', 'the outage to show', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await adminQuery(`alter database ${database.name} allow_connections true`);

    await waitFor(() => replay.revealed('reddit') >= 200, 'the whole stream', 30_000);
    const expected = expectedExternalIds(replay, corpus, 'reddit', 200);
    await waitFor(
      async () => (await storedIds(database.handle, 'reddit')).length >= expected.length,
      'every item',
      30_000,
    );
    const stored = await storedIds(database.handle, 'reddit');
    expect(stored.sort()).toEqual([...expected].sort());
    await waitFor(() => running.tracker.state === 'ok', 'recovery');
    const errors = running.tracker.errors.join('\n');
    expect(errors).toMatch(/terminat|connect/iu);
    // One line from the driver, never the statement and its parameters (item text).
    expect(errors).not.toMatch(/insert into|params:/iu);
  } finally {
    await running.stop();
  }
});
