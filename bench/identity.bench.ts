/**
 * Identity benchmark: sign-in (USER_PASSWORD_AUTH) and refresh (REFRESH_TOKEN_AUTH) on the
 * embedded identity service, over real HTTP, at 1 and 10 concurrent users.
 *
 *   npm run bench -- identity             PGlite on disk (the embedded default)
 *   DATABASE_URL=postgres://… npm run bench -- identity    in a new database, dropped after
 *   npm run bench -- identity refresh     only the scenarios whose name contains "refresh"
 *   IDP_PASSWORD_HASH_MEMORY_KIB=47104 IDP_PASSWORD_HASH_PASSES=1 npm run bench -- identity
 *
 * The whole app (createApp) runs in this process; the simulated users run in a worker thread
 * (bench/identity-load.ts) and send, over keep-alive node:http connections, the bytes the AWS SDK sends. Both share the
 * machine's cores. The per-IP limits are raised because every simulated user comes from
 * 127.0.0.1; everything else (argon2id cost, lockout bookkeeping, token signing, database reads
 * and writes, a log line per request) is as in production.
 *
 * Targets (issue 3): sign-in p95 < 300 ms and refresh p95 < 20 ms at 10 concurrent users.
 * Exit code 1 when a target is missed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { parseConfig } from '../src/config/env.ts';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createEmbeddedIdentity } from '../src/identity/embedded/create-embedded-identity.ts';
import { createLogger } from '../src/platform/logger.ts';
import { createMailer } from '../src/platform/mailer.ts';
import { createApp } from '../src/server/create-app.ts';
import { listen } from '../tests/support/test-app.ts';
import { createTestDatabase } from '../tests/support/test-database.ts';
import type { LoadRequest, LoadResult } from './identity-load.ts';

const ROUNDS = 3;
const USERS = 10;
const PASSWORD = 'Bench-Password-1!';
const UNLIMITED = { limit: Number.MAX_SAFE_INTEGER, windowSeconds: 60 };

type Scenario = {
  name: string;
  flow: 'sign-in' | 'refresh';
  concurrency: number;
  requests: number;
  targetP95Ms?: number;
};

const ALL_SCENARIOS: Scenario[] = [
  { name: 'sign-in, 1 user', flow: 'sign-in', concurrency: 1, requests: 100 },
  {
    name: 'sign-in, 10 concurrent users',
    flow: 'sign-in',
    concurrency: 10,
    requests: 300,
    targetP95Ms: 300,
  },
  { name: 'refresh, 1 user', flow: 'refresh', concurrency: 1, requests: 500 },
  {
    name: 'refresh, 10 concurrent users',
    flow: 'refresh',
    concurrency: 10,
    requests: 2000,
    targetP95Ms: 20,
  },
];

// `npm run bench -- identity refresh` runs only the scenarios whose name contains "refresh".
const filter = process.argv[2];
const SCENARIOS = ALL_SCENARIOS.filter((scenario) => !filter || scenario.name.includes(filter));

type Summary = {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  throughput: number;
  /** CPU milliseconds of the server's main thread per request (its single-threaded cost). */
  loopMs: number;
  /** CPU milliseconds per request of every thread of the process but the simulated users': the
   * main thread plus libuv's pool (password hashing, token signing). */
  serverMs: number;
  /** CPU milliseconds per request of the simulated users' thread (the HTTP client). */
  clientMs: number;
};

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'earshot-bench-identity-'));
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
  // Logging at info, as in production (one line per identity request), into /dev/null.
  const logger = createLogger('info', pino.destination({ dest: '/dev/null', sync: false }));
  // A PostgreSQL server gets a fresh database of its own (dropped at the end), never the one named.
  const database = config.DATABASE_URL
    ? await createTestDatabase()
    : await openDatabase({ pgliteDir: path.join(dataDir, 'pglite') });
  if (database.kind === 'pglite') await migrateDatabase(database);
  const mailer = createMailer({ config, logger });
  const identity = await createEmbeddedIdentity({
    config,
    database,
    logger,
    mailer,
    limits: {
      perIp: { passwordChecks: UNLIMITED, signInFailures: UNLIMITED, codeEmails: UNLIMITED },
    },
  });
  const app = createApp({
    config,
    database,
    identity,
    logger,
    version: 'bench',
    startedAt: Date.now(),
    webRoot: null,
  });
  const server = await listen({ fetch: (request, env) => app.fetch(request, env as object) });
  const endpoint = `${server.url}/idp/`;

  const users = await Promise.all(
    Array.from({ length: USERS }, async (_, index) => {
      const email = `bench-${index}-${randomBytes(4).toString('hex')}@example.com`;
      await identity.admin.createUser({ email, password: PASSWORD });
      return email;
    }),
  );
  const refreshTokens = await Promise.all(
    users.map((email) => signIn(endpoint, identity.clientId, email)),
  );

  console.log(
    `Identity benchmark — ${database.kind}, argon2id m=${config.IDP_PASSWORD_HASH_MEMORY_KIB} KiB ` +
      `t=${config.IDP_PASSWORD_HASH_PASSES} p=1, ${availableParallelism()} CPUs ` +
      `(${cpus()[0]?.model.trim() ?? 'unknown'}), Node ${process.version}, ` +
      `UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}, ` +
      `load average at start ${loadavg()[0]?.toFixed(2)} (other processes skew the figures)`,
  );
  console.log(
    `${ROUNDS} rounds, scenarios alternating within a round; latency per request in ms\n`,
  );

  const results = new Map<string, Summary[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const scenario of SCENARIOS) {
      const request: LoadRequest = {
        endpoint,
        clientId: identity.clientId,
        flow: scenario.flow,
        credentials: scenario.flow === 'sign-in' ? users : refreshTokens,
        password: PASSWORD,
        concurrency: scenario.concurrency,
        total: scenario.requests,
      };
      // Warm-up: JIT, connections, caches.
      await load({ ...request, total: scenario.concurrency * 3 });
      const summary = await load(request);
      results.set(scenario.name, [...(results.get(scenario.name) ?? []), summary]);
    }
  }

  let failed = false;
  console.log(
    '| scenario | p50 | p95 | p99 | max | req/s | CPU ms/req: server main thread | server, all threads | load generator | target p95 | result |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const scenario of SCENARIOS) {
    const rounds = results.get(scenario.name) ?? [];
    const median = (pick: (summary: Summary) => number) => medianOf(rounds.map(pick));
    const p95 = median((summary) => summary.p95);
    const target = scenario.targetP95Ms;
    const verdict = target === undefined ? '' : p95 < target ? 'pass' : 'FAIL';
    if (verdict === 'FAIL') failed = true;
    const goal = target === undefined ? '—' : `< ${target} (×${(p95 / target).toFixed(2)})`;
    const cells = [
      scenario.name,
      fmt(median((s) => s.p50)),
      fmt(p95),
      fmt(median((s) => s.p99)),
      fmt(median((s) => s.max)),
      String(Math.round(median((s) => s.throughput))),
      median((s) => s.loopMs).toFixed(2),
      median((s) => s.serverMs).toFixed(2),
      median((s) => s.clientMs).toFixed(2),
      goal,
      verdict,
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  console.log('\nRaw rounds (p95 ms):');
  for (const scenario of SCENARIOS) {
    const rounds = (results.get(scenario.name) ?? []).map((summary) => fmt(summary.p95));
    console.log(`  ${scenario.name}: ${rounds.join(', ')}`);
  }

  await server.close();
  await identity.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = failed ? 1 : 0;
}

/** Runs one scenario in a worker thread (the simulated users) and summarises its latencies. */
function load(request: LoadRequest): Promise<Summary> {
  const cpuBefore = process.threadCpuUsage();
  const processCpuBefore = process.cpuUsage();
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./identity-load.ts', import.meta.url), {
      workerData: request,
    });
    worker.once('message', (message: LoadResult | { error: string }) => {
      void worker.terminate();
      if ('error' in message) {
        reject(new Error(message.error));
        return;
      }
      const latencies = [...message.latencies].sort((a, b) => a - b);
      const at = (q: number) =>
        latencies[Math.min(latencies.length - 1, Math.ceil(q * latencies.length) - 1)] ?? 0;
      resolve({
        p50: at(0.5),
        p95: at(0.95),
        p99: at(0.99),
        max: latencies.at(-1) ?? 0,
        throughput: latencies.length / message.seconds,
        loopMs: cpuMs(process.threadCpuUsage(cpuBefore)) / latencies.length,
        // The process's CPU includes the worker thread's, its start-up too: all of it is taken out.
        serverMs:
          (cpuMs(process.cpuUsage(processCpuBefore)) - message.threadCpuMs) / latencies.length,
        clientMs: message.clientCpuMs / latencies.length,
      });
    });
    worker.once('error', reject);
  });
}

/** One password sign-in from the main thread (setup), returning the refresh token. */
async function signIn(endpoint: string, clientId: string, email: string): Promise<string> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: email, PASSWORD },
    }),
  });
  const answer = (await response.json()) as { AuthenticationResult?: { RefreshToken: string } };
  if (!answer.AuthenticationResult) throw new Error(`sign-in failed: ${JSON.stringify(answer)}`);
  return answer.AuthenticationResult.RefreshToken;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

function medianOf(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length % 2) return sorted[middle] ?? 0;
  return ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

await main();
