import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type ReplayServer, startReplay } from '../../src/replay/replay-server.ts';
import { runIngestion, storedIds, waitFor } from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';
import { adminQuery, describeServer } from '../support/server-database.ts';

// The database briefly unreachable (every connection cut and new ones refused for a while, on
// the PostgreSQL server): the source reports it, recovers by itself, and loses nothing. A cut
// connection fails the work it was doing, never the process (an uncaught error fails the run).

describeServer('a database outage on the PostgreSQL server', (server) => {
  const corpus = recordedCorpus();
  let replay: ReplayServer;

  beforeAll(async () => {
    replay = await startReplay({ corpus, maxRecords: 200, initial: 10, rate: 40 });
  });
  afterAll(async () => {
    await adminQuery(`alter database ${server().name} allow_connections true`).catch(() => {});
    await replay?.close();
  });

  test('a connection cut inside a transaction fails that transaction only', async () => {
    const { db } = server().handle;
    // The backend ends mid-transaction, as at a server restart: the statement fails, then the
    // socket closes while the transaction still holds its connection.
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select pg_terminate_backend(pg_backend_pid())`);
      }),
    ).rejects.toThrow();
    expect(await server().handle.ping()).toBe(true);
  });

  test('database unreachable for a while: reported as failing, recovered, nothing lost', async () => {
    const { handle, name } = server();
    const running = runIngestion(handle, replay, 'reddit', { REDDIT_BACKFILL_ITEMS: '100' });
    try {
      await waitFor(async () => (await storedIds(handle, 'reddit')).length > 20, 'first items');
      await adminQuery(`alter database ${name} allow_connections false`);
      await adminQuery(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`,
      );
      await waitFor(() => running.tracker.state === 'failing', 'the outage to show', 10_000);
      // The loop keeps trying while the database refuses it, and fails again.
      const failed = running.tracker.errors.length;
      await waitFor(() => running.tracker.errors.length > failed, 'a retry during the outage');
      await adminQuery(`alter database ${name} allow_connections true`);

      await waitFor(() => replay.revealed('reddit') >= 200, 'the whole stream', 30_000);
      const expected = expectedExternalIds(replay, corpus, 'reddit', 200);
      await waitFor(
        async () => (await storedIds(handle, 'reddit')).length >= expected.length,
        'every item',
        30_000,
      );
      const stored = await storedIds(handle, 'reddit');
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
});
