import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import { parseConfig } from '../src/config/env.ts';
import { rowsOf } from '../src/db/client.ts';
import { MatchEvents } from '../src/matches/match-events.ts';
import { startWorker } from '../src/pipeline/worker.ts';
import { loadReplayCorpus } from '../src/replay/corpus.ts';
import { startReplay } from '../src/replay/replay-server.ts';
import { silentLogger } from '../tests/support/silent-logger.ts';
import { openBenchDatabase, percentile, seedMonitors } from './bench-database.ts';

const { values } = parseArgs({
  options: {
    db: { type: 'string', default: 'both' },
    monitors: { type: 'string' },
    rates: { type: 'string' },
    seconds: { type: 'string' },
    poll: { type: 'string', default: '2' },
    quick: { type: 'boolean', default: false },
    burst: { type: 'string' },
  },
});
const MONITORS = Number(values.monitors ?? (values.quick ? 10_000 : 100_000));
const RATES = (values.rates ?? (values.quick ? '100,1000' : '100,300,1000,1500,2000'))
  .split(',')
  .map(Number);
const SECONDS = Number(values.seconds ?? (values.quick ? 8 : 20));
const BURST = Number(values.burst ?? (values.quick ? 5000 : 20_000));
const POLL_SECONDS = Number(values.poll);
const CORPUS = loadReplayCorpus(new URL('../tests/fixtures/recorded', import.meta.url).pathname);

type Phase = {
  rate: number;
  revealed: number;
  stored: number;
  matched: number;
  backlog: number;
  keptUp: boolean;
  p50: number;
  p95: number;
  max: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(kind: 'pglite' | 'postgres') {
  const { handle, drop } = await openBenchDatabase(kind, 'ingestion');
  const seedSeconds = await seedMonitors(handle, MONITORS);
  const replay = await startReplay({ corpus: CORPUS, loop: true, rate: 0, initial: 100 });
  const config = parseConfig({
    DATA_DIR: '/nonexistent',
    SOURCES: 'reddit',
    REDDIT_CLIENT_ID: 'replay-client',
    REDDIT_CLIENT_SECRET: 'replay-secret',
    REDDIT_AUTH_URL: `${replay.url}/api/v1/access_token`,
    REDDIT_API_URL: replay.url,
    REDDIT_POLL_SECONDS: String(POLL_SECONDS),
  });
  const events = new MatchEvents();
  // When each match was announced (after its commit: readable through the product from then).
  const announced = new Map<string, number>();
  events.subscribe((batch) => {
    const now = Date.now();
    for (const { matchId } of batch) announced.set(String(matchId), now);
  });
  const firstMatch = new Map<string, number>();
  let lastMatchId = 0;
  const collectMatches = async () => {
    const rows = rowsOf<{ id: string; external_id: string }>(
      await handle.db.execute(
        sql`select id::text as id, external_id from matches where id > ${lastMatchId} order by id`,
      ),
    );
    for (const row of rows) {
      lastMatchId = Math.max(lastMatchId, Number(row.id));
      const at = announced.get(row.id);
      announced.delete(row.id);
      const seen = firstMatch.get(row.external_id);
      if (at !== undefined && (seen === undefined || at < seen))
        firstMatch.set(row.external_id, at);
    }
  };
  let indexMs = 0;
  const started = Date.now();
  const worker = await startWorker({
    config,
    database: handle,
    events,
    logger: silentLogger,
    onShardReady: (_shard, _monitors, ms) => {
      indexMs = ms;
    },
  });
  const counts = async () => {
    const [row] = rowsOf<{ stored: number; matched: number }>(
      // Counted, not read off the ids: a conflicting insert uses an id too, leaving gaps.
      await handle.db.execute(sql`select
        (select count(*) from items)::int as stored,
        (select count(*) from items where id <= (select coalesce(max(last_item_id), 0) from match_cursors))::int as matched`),
    );
    return { stored: row?.stored ?? 0, matched: row?.matched ?? 0 };
  };
  // What the waiting loops poll, ten times a second: two lookups by index. Counting the items
  // there would scan the table each time, in the pipeline's own thread on PGlite.
  const progress = async () => {
    const [row] = rowsOf<{ top: string; through: string }>(
      await handle.db.execute(sql`select
        (select coalesce(max(id), 0) from items)::text as top,
        (select coalesce(max(last_item_id), 0) from match_cursors)::text as through`),
    );
    return { top: Number(row?.top ?? 0), through: Number(row?.through ?? 0) };
  };
  // Start-up: from starting the worker to its first batch of items matched and committed.
  while ((await progress()).through === 0 && Date.now() - started < 60_000) await sleep(20);
  const startupSeconds = (Date.now() - started) / 1000;

  /**
   * Waits until nothing more arrives (some records are skipped, deleted comments, so counts
   * never reach the replay's): every stored item matched and no new one for 2.5 s, after at
   * least a poll and a half. Returns when the last item was matched.
   */
  const settle = async (limitMs: number) => {
    const begin = Date.now();
    let last = await progress();
    let changedAt = Date.now();
    while (Date.now() - begin < limitMs) {
      await sleep(100);
      const now = await progress();
      if (now.top !== last.top || now.through !== last.through) changedAt = Date.now();
      last = now;
      const quiet = Date.now() - changedAt > 2500;
      // At least a poll and a half, so a connector asleep between polls is not taken for done.
      const polled = Date.now() - begin > (POLL_SECONDS * 1.5 + 1) * 1000;
      if (now.through >= now.top && quiet && polled) break;
    }
    return { ...(await counts()), at: changedAt };
  };

  const phases: Phase[] = [];
  for (const rate of RATES) {
    // Drain what is left, so each phase starts level.
    replay.setRate(0);
    await settle(60_000);
    const startIndex = replay.revealed('reddit');
    const before = await counts();
    const phaseStart = Date.now();
    replay.setRate(rate);
    await sleep(SECONDS * 1000);
    const endIndex = replay.revealed('reddit');
    const after = await counts();
    const seconds = (Date.now() - phaseStart) / 1000;
    // Latency of the items revealed in this phase that matched, once they all had a chance.
    replay.setRate(0);
    await sleep((POLL_SECONDS + 3) * 1000);
    await collectMatches();
    const latencies: number[] = [];
    for (const id of replay.externalIds('reddit', endIndex).slice(startIndex)) {
      const at = firstMatch.get(id);
      if (at !== undefined)
        latencies.push((at - replay.revealedAt('reddit', replay.indexOf('reddit', id))) / 1000);
    }
    latencies.sort((a, b) => a - b);
    const backlog = endIndex - after.matched;
    phases.push({
      rate,
      revealed: (endIndex - startIndex) / seconds,
      stored: (after.stored - before.stored) / seconds,
      matched: (after.matched - before.matched) / seconds,
      backlog,
      // At most one poll's worth outstanding (plus a request's 100 of each kind).
      keptUp: backlog <= rate * POLL_SECONDS + 200,
      p50: percentile(latencies, 50),
      p95: percentile(latencies, 95),
      max: latencies.at(-1) ?? Number.NaN,
    });
  }
  // The ceiling: a burst of items revealed at once, stored and matched as fast as the pipeline goes.
  replay.setRate(0);
  const burstFrom = await settle(60_000);
  const burstStart = Date.now();
  replay.revealMore(BURST);
  // Settle only once the connector has seen the burst: before its next poll nothing changes.
  const topBefore = (await progress()).top;
  while ((await progress()).top === topBefore && Date.now() - burstStart < 30_000) await sleep(50);
  const burstEnd = await settle(300_000);
  // Timed from the connector's first request after the reveal: until then the pipeline is only
  // waiting for its next poll (up to a poll interval, a tenth of a 20,000-item burst at 1,000/s).
  const firstRead = replay.requestTimes('reddit').find((at) => at >= burstStart) ?? burstStart;
  const burstRate = (burstEnd.matched - burstFrom.matched) / ((burstEnd.at - firstRead) / 1000);
  await worker.stop();
  await replay.close();
  const [matchRows] = rowsOf<{ n: number }>(
    await handle.db.execute(sql`select count(*)::int as n from matches`),
  );
  await drop();
  return {
    kind,
    seedSeconds,
    indexMs,
    startupSeconds,
    phases,
    burstRate,
    matches: matchRows?.n ?? 0,
  };
}

const kinds =
  values.db === 'both' ? (['pglite', 'postgres'] as const) : [values.db as 'pglite' | 'postgres'];
console.log(
  `ingestion benchmark: ${MONITORS.toLocaleString('en')} monitors, rates ${RATES.join(', ')} items/s, ${SECONDS} s each, Reddit poll ${POLL_SECONDS} s; ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
let failed = false;
for (const kind of kinds) {
  const result = await run(kind);
  console.log(
    `\n${kind}: monitors seeded in ${result.seedSeconds.toFixed(1)} s; worker start → index loaded ${(result.indexMs / 1000).toFixed(2)} s, → first match ${result.startupSeconds.toFixed(2)} s (target 10 s, ×${(10 / result.startupSeconds).toFixed(1)}); ${result.matches.toLocaleString('en')} matches stored`,
  );
  console.log(
    '| rate items/s | revealed/s | stored/s | matched/s | backlog at end | kept up | latency p50 / p95 / max s |',
  );
  console.log('|---:|---:|---:|---:|---:|---|---:|');
  for (const p of result.phases) {
    console.log(
      `| ${p.rate} | ${p.revealed.toFixed(0)} | ${p.stored.toFixed(0)} | ${p.matched.toFixed(0)} | ${p.backlog} | ${p.keptUp ? 'yes' : 'no'} | ${p.p50.toFixed(2)} / ${p.p95.toFixed(2)} / ${p.max.toFixed(2)} |`,
    );
  }
  const keptUp = Math.max(0, ...result.phases.filter((p) => p.keptUp).map((p) => p.rate));
  const ceiling = result.burstRate;
  console.log(
    `${kind}: a burst of ${BURST.toLocaleString('en')} items stored and matched at ${ceiling.toFixed(0)} items/s; highest rate kept up ${keptUp} items/s`,
  );
  const at100 = result.phases.find((p) => p.rate === 100);
  console.log(
    `${kind}: sustained ceiling ${ceiling.toFixed(0)} items/s (target 1,000: ×${(ceiling / 1000).toFixed(2)}); p95 at 100 items/s ${at100?.p95.toFixed(2) ?? '-'} s (target < ${POLL_SECONDS + 2} s: ×${at100 ? ((POLL_SECONDS + 2) / at100.p95).toFixed(2) : '-'})`,
  );
  if (ceiling < 1000 || (at100 && !(at100.p95 < POLL_SECONDS + 2)) || result.startupSeconds > 10)
    failed = true;
}
process.exit(failed ? 1 : 0);
