import { afterAll, beforeAll, expect, test } from 'vitest';
import { readSourceHealth } from '../../src/core/sources/read-source-health.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { startReplay } from '../../src/replay/replay-server.ts';
import { runIngestion, waitFor } from '../support/ingest-harness.ts';
import { recordedCorpus } from '../support/replay-corpus.ts';
import { createTestConfig } from '../support/test-config.ts';
import { createTestDatabase } from '../support/test-database.ts';

// What a source says of itself reaches the health every process reads (GET /api/health):
// Bluesky's queue (depth, the most that waited, lag), through the real WebSocket and loop.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

test('Bluesky’s queue depth and lag are in the health row while it runs', async () => {
  const replay = await startReplay({ corpus: recordedCorpus(), loop: true, initial: 50, rate: 20 });
  const running = runIngestion(handle, replay, 'bluesky');
  const config = createTestConfig({ SOURCES: 'bluesky' });
  const bluesky = async () =>
    (await readSourceHealth(handle.db, config)).find((entry) => entry.source === 'bluesky');
  try {
    await waitFor(async () => (await bluesky())?.queue?.lagMs != null, 'the queue in health');
    const health = await bluesky();
    expect(health?.queue?.maxDepth).toBeGreaterThan(0);
    expect(health?.queue?.depth).toBeGreaterThanOrEqual(0);
    // The lag is how far behind the newest event handed over is: seconds at most here.
    expect(health?.queue?.lagMs).toBeLessThan(30_000);
    expect(health?.note).toBeNull();
  } finally {
    await running.stop();
    await replay.close();
  }
});
