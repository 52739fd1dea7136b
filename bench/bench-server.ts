/**
 * What the HTTP benchmarks share: the app served for real over HTTP with the embedded identity
 * service (rate limits per address lifted, so sign-ins are not refused), real sign-ins, and the
 * reader load run in a worker thread (http-get-load.ts) with its latencies summarised.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { sql } from 'drizzle-orm';
import type { Config } from '../src/config/env.ts';
import type { Database, DatabaseHandle } from '../src/db/client.ts';
import { itemSearchDocumentSql, matchSearchDocumentSql } from '../src/db/search-text.ts';
import { createEmbeddedIdentity } from '../src/identity/embedded/create-embedded-identity.ts';
import type { Logger } from '../src/platform/logger.ts';
import { createMailer } from '../src/platform/mailer.ts';
import { createApp } from '../src/server/create-app.ts';
import { listen } from '../tests/support/test-app.ts';
import type { GetLoadRequest, GetLoadResult } from './http-get-load.ts';

export const BENCH_PASSWORD = 'Bench-Password-1!';
const UNLIMITED = { limit: Number.MAX_SAFE_INTEGER, windowSeconds: 60 };

export type LoadSummary = { p50: number; p95: number; max: number; throughput: number };

export async function startBenchServer(deps: {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
}) {
  const { config, database, logger } = deps;
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
  return {
    identity,
    server,
    async close() {
      await server.close();
      await identity.close();
      await mailer.close();
    },
  };
}

/** Signs in with USER_PASSWORD_AUTH over HTTP; the access token. */
export async function signIn(baseUrl: string, clientId: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/idp/`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
    },
    body: JSON.stringify({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: email, PASSWORD: BENCH_PASSWORD },
    }),
  });
  const answer = (await response.json()) as { AuthenticationResult?: { AccessToken: string } };
  if (!answer.AuthenticationResult) throw new Error(`sign-in failed: ${JSON.stringify(answer)}`);
  return answer.AuthenticationResult.AccessToken;
}

/** The product's user id of a token's user. */
export async function userOf(baseUrl: string, token: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/user`, { headers: { Authorization: token } });
  return ((await response.json()) as { id: string }).id;
}

/** Runs http-get-load.ts in a worker thread; its latencies' p50, p95, max and requests a second. */
export function load(request: GetLoadRequest): Promise<LoadSummary> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./http-get-load.ts', import.meta.url), {
      workerData: request,
    });
    worker.once('message', (message: GetLoadResult | { error: string }) => {
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
        max: latencies.at(-1) ?? 0,
        throughput: latencies.length / message.seconds,
      });
    });
    worker.once('error', reject);
  });
}

export function fmt(ms: number): string {
  return ms < 10 ? ms.toFixed(2) : ms.toFixed(1);
}

/**
 * The recorded items (tests/fixtures/items/items.jsonl) as `bench_texts`, the text of every row a
 * benchmark writes: numbered from 0, with the snippet a match would keep and both search
 * documents, folded once here as the pipeline folds them for each row. Returns the items.
 */
export async function loadBenchTexts(db: Database): Promise<Record<string, string | null>[]> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const recorded = readFileSync(path.join(root, 'tests/fixtures/items/items.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, string | null>);
  await db.execute(sql`create table bench_texts (n int primary key, source text, kind text,
    title text, body text, snippet text, url text, permalink text, author text, community text)`);
  for (let start = 0; start < recorded.length; start += 500) {
    const rows = recorded.slice(start, start + 500).map((item, i) => {
      const body = item.body ?? '';
      const snippet = (body.trim() ? body : (item.title ?? '')).slice(0, 300);
      return sql`(${start + i}, ${item.source}, ${item.kind}, ${item.title}, ${body}, ${snippet},
        ${item.url}, ${item.permalink}, ${item.author}, ${item.community})`;
    });
    await db.execute(sql`insert into bench_texts values ${sql.join(rows, sql`, `)}`);
  }
  await db.execute(
    sql`alter table bench_texts add column item_search tsvector, add column match_search tsvector`,
  );
  await db.execute(
    sql.raw(
      `update bench_texts set item_search = ${itemSearchDocumentSql}, match_search = ${matchSearchDocumentSql}`,
    ),
  );
  return recorded;
}
