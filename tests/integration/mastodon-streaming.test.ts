import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type DatabaseHandle, rowsOf } from '../../src/db/client.ts';
import { startReplay } from '../../src/replay/replay-server.ts';
import { runIngestion, storedIds, waitFor } from '../support/ingest-harness.ts';
import { expectedExternalIds, recordedCorpus } from '../support/replay-corpus.ts';
import { createTestDatabase } from '../support/test-database.ts';

// Mastodon's streaming API through the real loop and HTTP: the replay pushes each status as
// server-sent events once revealed; after a catching-up poll the source stops polling, a dropped
// stream sends it back to polling from its cursor, and every status is stored once.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

test('streaming once caught up, polling after a drop, every status once', async () => {
  const corpus = recordedCorpus();
  const replay = await startReplay({ corpus, loop: true, initial: 10, rate: 4 });
  const running = runIngestion(handle, replay, 'mastodon', { MASTODON_STREAMING: 'true' });
  const note = async () =>
    rowsOf<{ note: string | null }>(
      await handle.db.execute(sql`select note from source_health where source = 'mastodon'`),
    )[0]?.note;
  try {
    await waitFor(async () => (await note()) === 'streaming', 'the stream to take over');
    // Streaming: statuses keep coming, polls stop.
    const polls = replay.requests('mastodon');
    const stored = (await storedIds(handle, 'mastodon')).length;
    await waitFor(
      async () => (await storedIds(handle, 'mastodon')).length >= stored + 8,
      'pushed statuses',
    );
    expect(replay.requests('mastodon')).toBe(polls);

    // The stream is cut: polling from the cursor, then streaming again.
    replay.fault('mastodon', { kind: 'drop' }, 1);
    await waitFor(() => replay.requests('mastodon') > polls + 1, 'polling after the drop');
    await waitFor(async () => (await note()) === 'streaming', 'the stream back', 30_000);

    replay.setRate(0);
    const expected = expectedExternalIds(replay, corpus, 'mastodon', replay.revealed('mastodon'));
    await waitFor(
      async () => (await storedIds(handle, 'mastodon')).length >= expected.length,
      'every status',
    );
    const ids = await storedIds(handle, 'mastodon');
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...expected].sort());
    expect(running.tracker.state).toBe('ok');
  } finally {
    await running.stop();
    await replay.close();
  }
}, 120_000);
