/**
 * Preview load benchmark (issue 20, "one account can stall everyone through the preview"):
 * three accounts hammer POST /api/monitors/preview (2, then 40 requests in flight each: a 500-character
 * OR of the recorded items' most common words, an OR of 3-letter prefixes when the parser takes
 * them, and a CJK word full-text search cannot see, so every item is a candidate), while another
 * user reads their feed and their monitors one request after the other. Everything goes over
 * real HTTP through createApp with real access tokens.
 *
 *   npm run bench -- preview-load                          PGlite on disk, 100,000 items
 *   DATABASE_URL=postgres://… npm run bench -- preview-load  a new database, dropped after
 *   npm run bench -- preview-load --items 50000 --rounds 3 --requests 300
 *
 * Target: the reader's GET /api/matches and GET /api/monitors p95 < 100 ms under the flood.
 * Baseline, measured in the same run, alternating with it: the same reader with no preview
 * running. Exit code 1 when the target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { parseConfig } from '../src/config/env.ts';
import { checkMonitorQuery } from '../src/core/monitors/check-monitor-query.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { STOP_WORDS } from '../src/matcher/stop-words.ts';
import { createLogger } from '../src/platform/logger.ts';
import { MONITOR_QUERY_MAX_LENGTH } from '../src/shared/monitor.ts';
import { createTestDatabase } from '../tests/support/test-database.ts';
import {
  BENCH_PASSWORD,
  fmt,
  type LoadSummary,
  load,
  loadBenchTexts,
  signIn,
  startBenchServer,
  userOf,
} from './bench-server.ts';
import type { FloodRequest, FloodResult } from './preview-flood.ts';

const _ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The two floods: as many previews as the limits let run, and a flood of requests on top. */
const FLOODS = [
  { name: '3 accounts × 2 previews in flight', perAccount: 2 },
  { name: '3 accounts × 40 previews in flight', perAccount: 40 },
] as const;
const TARGET_P95_MS = 100;

const { values: args } = parseArgs({
  options: {
    items: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '300' },
  },
});

type Summary = LoadSummary;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-bench-preview-'));
  const config = parseConfig({
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PORT: '0',
    COGNITO_USER_POOL_ID: '',
    COGNITO_CLIENT_ID: '',
    SMTP_URL: '',
  });
  const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: false }));
  const database = config.DATABASE_URL
    ? await createTestDatabase()
    : await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  if (database.kind === 'pglite') await migrateDatabase(database);
  const itemCount = Number(args.items ?? 100_000);
  const rounds = Number(args.rounds);
  const perRound = Number(args.requests);

  const { identity, server, close } = await startBenchServer({ config, database, logger });
  const db = database.db;
  const setupStarted = performance.now();

  // The reader first, then the three attackers, each signed in for real.
  const tokens: string[] = [];
  for (let i = 0; i < 4; i++) {
    const email = `bench-preview-${i}-${randomBytes(4).toString('hex')}@example.com`;
    await identity.admin.createUser({ email, password: BENCH_PASSWORD });
    const token = await signIn(server.url, identity.clientId, email);
    const created = await fetch(`${server.url}/api/user`, {
      method: 'POST',
      headers: { Authorization: token, 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (!created.ok) throw new Error(`POST /api/user answered ${created.status}`);
    tokens.push(token);
  }
  const [readerToken, ...attackerTokens] = tokens as [string, ...string[]];
  const reader = await userOf(server.url, readerToken);

  const recorded = await loadBenchTexts(db);
  const texts = recorded.length;
  // A week of items, newest first, and the reader's 3 monitors with 2,000 matches over it.
  await db.execute(sql`
    insert into items (source, external_id, kind, title, body, url, permalink, author, community, created_at, search)
    select t.source, 'b' || g, t.kind, t.title, t.body, t.url, t.permalink, t.author, t.community,
      now() - make_interval(secs => g * ${(7 * 86_400) / itemCount}::float8), t.item_search
    from generate_series(1, ${itemCount}::int) g join bench_texts t on t.n = g % ${texts}::int`);
  await db.execute(sql`insert into monitors (user_id, name, query)
    select ${reader}::uuid, 'Monitor ' || g, 'word' || g from generate_series(1, 3) g`);
  await db.execute(sql`
    insert into matches (user_id, monitor_id, source, external_id, kind, title, snippet,
      highlights, url, permalink, author, community, item_created_at, matched_at, read_at, search)
    select ${reader}::uuid, mon.ids[1 + (g % 3)], t.source, 'r' || g, t.kind, t.title, t.snippet,
      '[[0, 4]]'::jsonb, t.url, t.permalink, t.author, t.community,
      now() - make_interval(secs => g * 300), now() - make_interval(secs => g * 300),
      case when g % 2 = 0 then now() end, t.match_search
    from generate_series(1, 2000) g join bench_texts t on t.n = (g * 7) % ${texts}::int
    cross join (select array_agg(id order by name) ids from monitors where user_id = ${reader}::uuid) mon`);
  await db.execute(sql`drop table bench_texts`);
  if (database.kind === 'postgres') await db.execute(sql`vacuum analyze`);
  const setupSeconds = (performance.now() - setupStarted) / 1000;

  const queries = attackQueries(recorded);
  const accounts = attackerTokens.map((token, i) => ({
    token,
    body: JSON.stringify({ query: queries[i % queries.length] }),
  }));
  const readerRequests = [{ path: '/api/matches?limit=50' }, { path: '/api/monitors' }];

  console.log(
    `Preview load benchmark — ${database.kind}, ${itemCount.toLocaleString('en')} items over 7 days; ` +
      'three accounts flooding the preview against one reader; ' +
      `PREVIEW_BUDGET_ITEMS=${config.PREVIEW_BUDGET_ITEMS}, PREVIEW_BUDGET_MS=${config.PREVIEW_BUDGET_MS}, ` +
      `PREVIEW_DB_SHARE_PERCENT=${config.PREVIEW_DB_SHARE_PERCENT}; ${availableParallelism()} CPUs ` +
      `(${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, load average at start ` +
      `${loadavg()[0]?.toFixed(2)}; setup ${setupSeconds.toFixed(0)} s`,
  );
  for (const [i, query] of queries.entries()) {
    console.log(`  attacker ${i + 1}: ${query.length} characters: ${query.slice(0, 90)}…`);
  }
  console.log(
    `${rounds} rounds, idle and flooded alternating; ${perRound} sequential reader requests each; ms\n`,
  );

  const idle: Summary[] = [];
  const flooded = new Map<string, Summary[]>(FLOODS.map((flood) => [flood.name, []]));
  const floods = new Map<string, FloodResult[]>(FLOODS.map((flood) => [flood.name, []]));
  const readerLoad = (total: number) =>
    load({
      baseUrl: server.url,
      clients: [{ token: readerToken, requests: readerRequests }],
      concurrency: 1,
      total,
    });
  await readerLoad(50);
  for (let round = 0; round < rounds; round++) {
    const phases = [null, ...FLOODS];
    for (const phase of round % 2 === 0 ? phases : phases.reverse()) {
      if (phase === null) {
        idle.push(await readerLoad(perRound));
        continue;
      }
      const flood = startFlood({
        baseUrl: server.url,
        accounts,
        concurrency: phase.perAccount * accounts.length,
      });
      // Let the flood reach its steady state before the reader starts.
      await new Promise((resolve) => setTimeout(resolve, 2000));
      flooded.get(phase.name)?.push(await readerLoad(perRound));
      floods.get(phase.name)?.push(await flood.stop());
      // The per-minute limit starts afresh for the next flood.
      await new Promise((resolve) => setTimeout(resolve, 61_000));
    }
  }

  const medianOf = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const row = (name: string, summaries: Summary[], target: string, ratio: string) =>
    console.log(
      `| ${name} | ${fmt(medianOf(summaries.map((s) => s.p50)))} | ${fmt(medianOf(summaries.map((s) => s.p95)))} | ${fmt(medianOf(summaries.map((s) => s.max)))} | ${target} | ${ratio} |`,
    );
  const idleP95 = medianOf(idle.map((s) => s.p95));
  let met = true;
  console.log(
    '| reader: GET /api/matches + GET /api/monitors | p50 | p95 | max | target p95 | × idle p95 |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  row('no preview running (baseline)', idle, '—', '—');
  for (const { name } of FLOODS) {
    const summaries = flooded.get(name) ?? [];
    const p95 = medianOf(summaries.map((s) => s.p95));
    if (p95 >= TARGET_P95_MS) met = false;
    row(
      name,
      summaries,
      `< ${TARGET_P95_MS} ${p95 < TARGET_P95_MS ? 'pass' : 'FAIL'}`,
      `×${(p95 / idleP95).toFixed(1)}`,
    );
  }
  console.log('');
  for (const { name } of FLOODS) {
    const results = floods.get(name) ?? [];
    const statuses: Record<string, number> = {};
    for (const flood of results) {
      for (const [key, n] of Object.entries(flood.statuses)) {
        statuses[key] = (statuses[key] ?? 0) + n;
      }
    }
    const seconds = results.reduce((sum, flood) => sum + flood.seconds, 0);
    const latencies = results.flatMap((flood) => flood.latencies).sort((a, b) => a - b);
    const at = (q: number) =>
      latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0;
    console.log(
      `${name}, the attackers' answers over ${seconds.toFixed(0)} s: ${Object.entries(statuses)
        .sort()
        .map(([key, n]) => `${key}: ${n.toLocaleString('en')}`)
        .join(', ')}; previews answered 200: p50 ${fmt(at(0.5))} ms, p95 ${fmt(at(0.95))} ms`,
    );
  }
  console.log('\nRaw rounds (reader p95 ms):');
  console.log(`  idle: ${idle.map((s) => fmt(s.p95)).join(', ')}`);
  for (const { name } of FLOODS) {
    console.log(`  ${name}: ${(flooded.get(name) ?? []).map((s) => fmt(s.p95)).join(', ')}`);
  }

  await close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = met ? 0 : 1;
}

/**
 * The three attacks of the security review: an OR of the recorded items' most common words
 * that the parser accepts (no stop word), up to the query's 500 characters; an OR of 3-letter
 * prefixes when the parser accepts one (else a second OR of words); and a CJK word.
 */
function attackQueries(recorded: Record<string, string | null>[]): string[] {
  const frequency = new Map<string, number>();
  for (const item of recorded) {
    const text = `${item.title ?? ''} ${item.body ?? ''}`.toLowerCase();
    for (const word of new Set(text.match(/[a-z]{4,}/g) ?? [])) {
      if (!STOP_WORDS.has(word)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    }
  }
  const common = [...frequency.entries()].sort((a, b) => b[1] - a[1]).map(([word]) => word);
  const orOf = (terms: readonly string[]) => {
    let query = '';
    for (const term of terms) {
      const next = query ? `${query} OR ${term}` : term;
      if (next.length > MONITOR_QUERY_MAX_LENGTH) break;
      query = next;
    }
    return query;
  };
  const words = orOf(common);
  checkMonitorQuery(words);
  const prefixes = orOf([...new Set(common.map((word) => `${word.slice(0, 3)}*`))]);
  let second = prefixes;
  try {
    checkMonitorQuery(prefixes);
  } catch {
    second = orOf(common.slice(60));
  }
  return [words, second, '日本語'];
}

function startFlood(request: FloodRequest): { stop(): Promise<FloodResult> } {
  const worker = new Worker(new URL('./preview-flood.ts', import.meta.url), {
    workerData: request,
  });
  const done = new Promise<FloodResult>((resolve, reject) => {
    worker.once('message', (message: FloodResult | { error: string }) => {
      void worker.terminate();
      if ('error' in message) reject(new Error(message.error));
      else resolve(message);
    });
    worker.once('error', reject);
  });
  return {
    stop() {
      worker.postMessage('stop');
      return done;
    },
  };
}

await main();
