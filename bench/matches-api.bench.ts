/**
 * Matches API benchmark (issue 13): one user with 1,000,000 matches and 100 monitors on the
 * PostgreSQL server (100,000 on PGlite), 200 other users with feeds of their own, and the items
 * of 14 days of Hacker News and a busy Reddit day for the preview. Everything goes over real
 * HTTP through createApp with real access tokens (the embedded identity service), a log line
 * per request into /dev/null, as in production.
 *
 *   DATABASE_URL=postgres://… npm run bench -- matches-api     a new database, dropped after
 *   npm run bench -- matches-api                               PGlite on disk (100,000 matches)
 *   npm run bench -- matches-api --matches 200000 --items 100000 --rounds 3
 *
 * The data is written with SQL (generate_series over the recorded items of
 * tests/fixtures/items), not through the pipeline: a million matches through the matcher would
 * take longer than the benchmark, and the API reads the same rows either way. The full-text
 * indexes are built after the load, as a restore would.
 *
 * Targets: first and deep pages p95 < 30 ms, with filters or q < 50 ms, stats < 100 ms,
 * preview < 300 ms, 200 concurrent clients > 1,000 requests/s. Baselines measured in the same
 * run: GET /api/user (the same authentication and one indexed row) for the feed's latencies;
 * the preview without its prefilter (every item of the week verified by the matcher).
 * Exit code 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { parseConfig } from '../src/config/env.ts';
import { openDatabase, rowsOf } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createMonitorIndex } from '../src/matcher/monitor-index.ts';
import { parseQuery } from '../src/matcher/query-parser.ts';
import { createLogger } from '../src/platform/logger.ts';
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

const _ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLIENTS = 200;

const { values: args } = parseArgs({
  options: {
    matches: { type: 'string' },
    items: { type: 'string' },
    rounds: { type: 'string', default: '3' },
    requests: { type: 'string', default: '100' },
  },
});

type Request = { path: string; body?: string; token?: string };
type Scenario = {
  name: string;
  requests: Request[];
  target?: number;
  /** Which baseline its ratio is taken against. */
  baseline?: string;
};
type Summary = LoadSummary;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-bench-matches-'));
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
  const onServer = database.kind === 'postgres';
  const bigMatches = Number(args.matches ?? (onServer ? 1_000_000 : 100_000));
  const smallMatches = onServer ? 500 : 100;
  const hnItems = Number(args.items ?? 168_000);
  const redditItems = Math.round(hnItems * 0.9);
  const rounds = Number(args.rounds);
  const perScenario = Number(args.requests);

  const { identity, server, close } = await startBenchServer({ config, database, logger });
  const db = database.db;
  const setupStarted = performance.now();

  // Users: the heavy one first, then the 200 concurrent readers, each signed in for real.
  const tokens: string[] = [];
  for (let start = 0; start <= CLIENTS; start += 8) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(8, CLIENTS + 1 - start) }, async (_, i) => {
        const email = `bench-${start + i}-${randomBytes(4).toString('hex')}@example.com`;
        await identity.admin.createUser({ email, password: BENCH_PASSWORD });
        const token = await signIn(server.url, identity.clientId, email);
        const created = await fetch(`${server.url}/api/user`, {
          method: 'POST',
          headers: { Authorization: token, 'Content-Type': 'application/json' },
          body: '{}',
        });
        if (!created.ok) throw new Error(`POST /api/user answered ${created.status}`);
        return token;
      }),
    );
    tokens.push(...batch);
  }
  const bigToken = tokens[0] as string;
  const bigUser = await userOf(server.url, bigToken);

  const texts = (await loadBenchTexts(db)).length;

  await db.execute(sql`drop index matches_search_idx`);
  await db.execute(sql`drop index items_search_idx`);
  await db.execute(sql`insert into monitors (user_id, name, query)
    select ${bigUser}::uuid, 'Monitor ' || g, 'word' || g from generate_series(1, 100) g`);
  await db.execute(sql`insert into monitors (user_id, name, query)
    select id, 'Feed', 'feed' from users where id <> ${bigUser}::uuid`);
  // The heavy user's matches, spread over a year, ids rising with time, 70% read.
  const span = 365 * 86_400;
  for (let start = 1; start <= bigMatches; start += 100_000) {
    const end = Math.min(bigMatches, start + 99_999);
    await db.execute(sql`
      insert into matches (user_id, monitor_id, source, external_id, kind, title, snippet,
        highlights, url, permalink, author, community, item_created_at, matched_at, read_at, search)
      select ${bigUser}::uuid, mon.ids[1 + (g % 100)], t.source, 'b' || g, t.kind, t.title,
        t.snippet, '[[0, 4]]'::jsonb, t.url, t.permalink, t.author, t.community, ts.at, ts.at,
        case when g % 10 < 7 then ts.at end, t.match_search
      from generate_series(${start}::int, ${end}::int) g
      join bench_texts t on t.n = g % ${texts}::int
      cross join (select array_agg(id order by name) ids from monitors where user_id = ${bigUser}::uuid) mon
      cross join lateral (select now() - make_interval(secs => (${bigMatches}::int - g) * ${span / bigMatches}::float8) as at) ts`);
  }
  await db.execute(sql`
    insert into matches (user_id, monitor_id, source, external_id, kind, title, snippet,
      highlights, url, permalink, author, community, item_created_at, matched_at, read_at, search)
    select m.user_id, m.id, t.source, 's' || g, t.kind, t.title, t.snippet, '[[0, 4]]'::jsonb,
      t.url, t.permalink, t.author, t.community, now() - make_interval(secs => g * 600),
      now() - make_interval(secs => g * 600), case when g % 2 = 0 then now() end, t.match_search
    from monitors m cross join generate_series(1, ${smallMatches}::int) g
    join bench_texts t on t.n = (g * 7 + length(m.id::text)) % ${texts}::int
    where m.user_id <> ${bigUser}::uuid`);
  // The items: 14 days of Hacker News, and a busy day of Reddit.
  await db.execute(sql`
    insert into items (source, external_id, kind, title, body, url, permalink, author, community, created_at, search)
    select 'hackernews', 'hn' || g, t.kind, t.title, t.body, t.url, t.permalink, t.author, null,
      now() - make_interval(secs => g * ${(14 * 86_400) / hnItems}::float8), t.item_search
    from generate_series(1, ${hnItems}::int) g join bench_texts t on t.n = g % ${texts}::int`);
  await db.execute(sql`
    insert into items (source, external_id, kind, title, body, url, permalink, author, community, created_at, search)
    select 'reddit', 'rd' || g, t.kind, t.title, t.body, t.url, t.permalink, t.author,
      coalesce(t.community, 'programming'), now() - make_interval(secs => g * ${86_400 / redditItems}::float8), t.item_search
    from generate_series(1, ${redditItems}::int) g join bench_texts t on t.n = (g * 13) % ${texts}::int`);
  await db.execute(sql`create index matches_search_idx on matches using gin (search)`);
  await db.execute(sql`create index items_search_idx on items using gin (search)`);
  await db.execute(sql`vacuum analyze`);
  const setupSeconds = (performance.now() - setupStarted) / 1000;

  // Cursors at several depths of the heavy user's feed, and one of their monitors.
  const [bounds] = rowsOf<{ low: string; high: string }>(
    await db.execute(
      sql`select min(id)::bigint as low, max(id)::bigint as high from matches where user_id = ${bigUser}::uuid`,
    ),
  );
  const low = Number(bounds?.low);
  const high = Number(bounds?.high);
  const cursors = [0.001, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99].map((depth) =>
    String(Math.round(high - depth * (high - low))),
  );
  const [monitor] = rowsOf<{ id: string }>(
    await db.execute(
      sql`select id from monitors where user_id = ${bigUser}::uuid order by name limit 1`,
    ),
  );
  const monitorId = monitor?.id ?? '';
  const deep = (query: string) =>
    cursors.map((cursor) => ({ path: `/api/matches?limit=50${query}&cursor=${cursor}` }));
  const previewQueries = [
    'rust',
    'google OR microsoft',
    '"open source" -hiring',
    'startup*',
    'python',
  ];

  const scenarios: Scenario[] = [
    { name: 'GET /api/user (baseline)', requests: [{ path: '/api/user' }] },
    {
      name: 'first page',
      requests: [{ path: '/api/matches?limit=50' }],
      target: 30,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'deep pages (7 depths)',
      requests: deep(''),
      target: 30,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'monitor filter, first + deep',
      requests: [
        { path: `/api/matches?limit=50&monitorId=${monitorId}` },
        ...deep(`&monitorId=${monitorId}`),
      ],
      target: 50,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'source filter, first + deep',
      requests: [{ path: '/api/matches?limit=50&source=lobsters' }, ...deep('&source=lobsters')],
      target: 50,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'unread, first + deep',
      requests: [{ path: '/api/matches?limit=50&unread=true' }, ...deep('&unread=true')],
      target: 50,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'monitor + source + unread',
      requests: [
        { path: `/api/matches?limit=50&monitorId=${monitorId}&source=hackernews&unread=true` },
      ],
      target: 50,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'q (common, rare, two words, prefix)',
      requests: ['google', 'kakapo', 'open%20source', 'startu', 'rust&unread=true'].map((q) => ({
        path: `/api/matches?limit=50&q=${q}`,
      })),
      target: 50,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'stats, 30 days',
      requests: [{ path: '/api/matches/stats?days=30' }],
      target: 100,
      baseline: 'GET /api/user (baseline)',
    },
    {
      name: 'preview (5 queries)',
      // Spread over the readers' accounts: one account may ask for 120 previews a minute.
      requests: tokens.slice(1).map((token, i) => ({
        path: '/api/monitors/preview',
        body: JSON.stringify({ query: previewQueries[i % previewQueries.length] }),
        token,
      })),
      target: 300,
    },
  ];

  console.log(
    `Matches API benchmark — ${database.kind}, ${bigMatches.toLocaleString('en')} matches and 100 monitors for one user, ` +
      `${CLIENTS} other users with ${smallMatches} matches each, ${(hnItems + redditItems).toLocaleString('en')} items ` +
      `(14 days of Hacker News, a day of Reddit); ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ` +
      `Node ${process.version}, load average at start ${loadavg()[0]?.toFixed(2)}; setup ${setupSeconds.toFixed(0)} s`,
  );
  console.log(
    `${rounds} rounds, scenarios alternating order; ${perScenario} sequential requests each; ms\n`,
  );

  const results = new Map<string, Summary[]>();
  const concurrent: Summary[] = [];
  const unfiltered: number[] = [];
  const concurrentClients = tokens.slice(1).map((token) => ({
    token,
    requests: [{ path: '/api/matches?limit=50' }, { path: '/api/matches?limit=50&unread=true' }],
  }));
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? scenarios : [...scenarios].reverse();
    for (const scenario of order) {
      const clients = [{ token: bigToken, requests: scenario.requests }];
      await load({
        baseUrl: server.url,
        clients,
        concurrency: 1,
        total: scenario.requests.length * 2,
      });
      const summary = await load({
        baseUrl: server.url,
        clients,
        concurrency: 1,
        total: perScenario,
      });
      results.set(scenario.name, [...(results.get(scenario.name) ?? []), summary]);
    }
    await load({
      baseUrl: server.url,
      clients: concurrentClients,
      concurrency: CLIENTS,
      total: 1000,
    });
    concurrent.push(
      await load({
        baseUrl: server.url,
        clients: concurrentClients,
        concurrency: CLIENTS,
        total: 6000,
      }),
    );
    unfiltered.push(await previewWithoutPrefilter(database.db, previewQueries[0] as string));
  }

  let failed = false;
  const medianOf = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] ?? 0;
  };
  const p95Of = (name: string) => medianOf((results.get(name) ?? []).map((s) => s.p95));
  console.log('| scenario | p50 | p95 | max | target p95 | × baseline p95 | result |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const scenario of scenarios) {
    const rounds = results.get(scenario.name) ?? [];
    const p95 = p95Of(scenario.name);
    const verdict = scenario.target === undefined ? '' : p95 < scenario.target ? 'pass' : 'FAIL';
    if (verdict === 'FAIL') failed = true;
    const ratio = scenario.name.startsWith('preview')
      ? `÷${(medianOf(unfiltered) / p95).toFixed(1)} vs no prefilter (${fmt(medianOf(unfiltered))} ms)`
      : scenario.baseline
        ? `×${(p95 / p95Of(scenario.baseline)).toFixed(1)}`
        : '—';
    console.log(
      `| ${scenario.name} | ${fmt(medianOf(rounds.map((s) => s.p50)))} | ${fmt(p95)} | ${fmt(medianOf(rounds.map((s) => s.max)))} | ${scenario.target ? `< ${scenario.target}` : '—'} | ${ratio} | ${verdict} |`,
    );
  }
  const throughput = medianOf(concurrent.map((s) => s.throughput));
  const concurrentVerdict = throughput > 1000 ? 'pass' : 'FAIL';
  if (concurrentVerdict === 'FAIL') failed = true;
  console.log(
    `| ${CLIENTS} concurrent clients, own feeds (req/s) | ${fmt(medianOf(concurrent.map((s) => s.p50)))} | ${fmt(medianOf(concurrent.map((s) => s.p95)))} | ${fmt(medianOf(concurrent.map((s) => s.max)))} | > 1,000 req/s | ${Math.round(throughput)} req/s | ${concurrentVerdict} |`,
  );
  console.log('\nRaw rounds (p95 ms; req/s for the concurrent clients):');
  for (const scenario of scenarios) {
    console.log(
      `  ${scenario.name}: ${(results.get(scenario.name) ?? []).map((s) => fmt(s.p95)).join(', ')}`,
    );
  }
  console.log(
    `  ${CLIENTS} concurrent clients: ${concurrent.map((s) => Math.round(s.throughput)).join(', ')}`,
  );
  console.log(
    `  preview without prefilter ("${previewQueries[0]}"): ${unfiltered.map(fmt).join(', ')}`,
  );

  await close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}

/** The preview's baseline: every item of the week read and verified, no full-text prefilter. */
async function previewWithoutPrefilter(
  db: Awaited<ReturnType<typeof openDatabase>>['db'],
  query: string,
): Promise<number> {
  const started = performance.now();
  const index = createMonitorIndex();
  index.add('preview', parseQuery(query));
  const rows = rowsOf<{ source: string; title: string | null; body: string; url: string | null }>(
    await db.execute(
      sql`select source, title, body, url, author, community from items where created_at > now() - interval '7 days'`,
    ),
  );
  let found = 0;
  for (const row of rows) if (index.match(row).length > 0) found++;
  if (found < 0) throw new Error('unreachable');
  return performance.now() - started;
}

await main();
