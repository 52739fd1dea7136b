/**
 * Bluesky benchmark: the replay's Jetstream (the recorded post events, looped with fresh keys)
 * at a sustained rate into the real ingestion loop of the Bluesky source (WebSocket → bounded
 * queue → storeItems) on PGlite on disk. Reports post → stored latency (from the moment the
 * replay reveals a post to the moment its row is readable, sampled every 200 ms) p50 / p95 /
 * max, the queue's largest depth, and the lag (now − newest time_us handed over) in each
 * quarter of the run, which must not grow.
 *
 *   npm run bench -- bluesky                          100 posts/s (of 128 events/s) for 60 s
 *   npm run bench -- bluesky --rate 200 --seconds 30
 *
 * No monitors: matching is measured by `npm run bench -- ingestion`. The replay runs in this
 * process and shares the two cores with the loop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { openDatabase, rowsOf } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { ingestSource } from '../src/pipeline/ingest-source.ts';
import { SourceHealthTracker } from '../src/pipeline/source-health-tracker.ts';
import { loadReplayCorpus } from '../src/replay/corpus.ts';
import { startReplay } from '../src/replay/replay-server.ts';
import { createBlueskySource } from '../src/sources/bluesky/connector.ts';
import { blueskyReplay } from '../src/sources/bluesky/replay.ts';
import { silentLogger } from '../tests/support/silent-logger.ts';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '60' },
  },
});
const RATE = Number(values.rate);
const SECONDS = Number(values.seconds);
const corpus = loadReplayCorpus(new URL('../tests/fixtures/recorded', import.meta.url).pathname);

const dir = mkdtempSync(path.join(tmpdir(), 'earshot-bench-bluesky-'));
const handle = await openDatabase({ pgliteDir: dir });
await migrateDatabase(handle);
// The replay's rate counts every event it sends (deletes, identity and account events too).
const records = corpus.sites.bluesky ?? [];
const kept = records.filter((record) => blueskyReplay.keeps(record)).length;
const replay = await startReplay({
  corpus,
  loop: true,
  initial: 0,
  rate: (RATE * records.length) / kept,
});
const source = createBlueskySource({
  url: `${replay.url.replace('http', 'ws')}/bluesky/subscribe`,
  pollIntervalMs: 1000,
});
const abort = new AbortController();
const loop = ingestSource(
  {
    db: handle.db,
    source,
    tracker: new SourceHealthTracker('bluesky', source.pollIntervalMs),
    logger: silentLogger,
    onStored: () => {},
    leader: 'bench',
  },
  abort.signal,
);

const latencies: number[] = [];
const lags: number[][] = [[], [], [], []];
let lastId = 0;
const started = Date.now();
while (Date.now() - started < SECONDS * 1000) {
  await new Promise((resolve) => setTimeout(resolve, 200));
  const now = Date.now();
  const rows = rowsOf<{ id: number; external_id: string }>(
    await handle.db.execute(
      sql`select id, external_id from items where source = 'bluesky' and id > ${lastId} order by id`,
    ),
  );
  for (const row of rows) {
    lastId = Math.max(lastId, Number(row.id));
    const index = replay.indexOf('bluesky', row.external_id);
    if (index >= 0) latencies.push(now - replay.revealedAt('bluesky', index));
  }
  const { lagMs } = source.stats();
  const quarter = Math.min(3, Math.floor(((now - started) / (SECONDS * 1000)) * 4));
  if (lagMs !== null) lags[quarter]?.push(lagMs);
}
abort.abort();
await loop;
await replay.close();
await handle.close();
rmSync(dir, { recursive: true, force: true });

latencies.sort((a, b) => a - b);
const at = (share: number) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0;
const mean = (list: number[]) => (list.length ? list.reduce((a, b) => a + b, 0) / list.length : 0);
const seconds = (ms: number) => (ms / 1000).toFixed(2);
console.log(
  `Bluesky: ${RATE} posts/s for ${SECONDS} s on PGlite (${latencies.length} posts stored)`,
);
console.log(
  `post → stored: p50 ${seconds(at(0.5))} s, p95 ${seconds(at(0.95))} s, max ${seconds(latencies.at(-1) ?? 0)} s`,
);
console.log(`queue depth max: ${source.stats().maxDepth}`);
console.log(
  `lag (now − newest time_us handed over), mean by quarter: ${lags.map((list) => `${seconds(mean(list))} s`).join(', ')}`,
);
