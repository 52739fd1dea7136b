import { sql } from 'drizzle-orm';
import { parseConfig } from '../../src/config/env.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import { createSources } from '../../src/pipeline/create-sources.ts';
import { ingestSource } from '../../src/pipeline/ingest-source.ts';
import { SourceHealthTracker } from '../../src/pipeline/source-health-tracker.ts';
import { createSourceInterests } from '../../src/pipeline/watched-repositories.ts';
import { describeError } from '../../src/platform/describe-error.ts';
import { type ReplayServer, replaySettings } from '../../src/replay/replay-server.ts';
import type { SourceName } from '../../src/shared/sources.ts';
import { silentLogger } from './silent-logger.ts';

/** Earshot's environment pointed at a replay, with short polls and timeouts for tests. */
export function replayEnv(
  replay: ReplayServer,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    ...replaySettings(replay.url),
    HN_POLL_SECONDS: '0.1',
    REDDIT_POLL_SECONDS: '0.1',
    REDDIT_BACKFILL_ITEMS: '5000',
    LOBSTERS_POLL_SECONDS: '0.1',
    DEVTO_POLL_SECONDS: '0.1',
    MASTODON_POLL_SECONDS: '0.1',
    // The site suites test the polling (its faults); streaming is tested on its own.
    MASTODON_STREAMING: 'false',
    GITHUB_POLL_SECONDS: '0.1',
    BLUESKY_POLL_SECONDS: '0.1',
    STACKEXCHANGE_POLL_SECONDS: '0.1',
    SOURCE_TIMEOUT_SECONDS: '0.5',
    ...overrides,
  };
}

/** A health tracker that also keeps every state and fault it went through. */
export class RecordingTracker extends SourceHealthTracker {
  readonly states: string[] = [];
  readonly errors: string[] = [];
  override succeeded(batch: Parameters<SourceHealthTracker['succeeded']>[0]): void {
    super.succeeded(batch);
    if (this.states.at(-1) !== this.state) this.states.push(this.state);
  }
  override failed(error: unknown): void {
    super.failed(error);
    this.errors.push(describeError(error));
    if (this.states.at(-1) !== this.state) this.states.push(this.state);
  }
}

export type RunningIngestion = {
  readonly tracker: RecordingTracker;
  stop(): Promise<void>;
};

/** Runs the real ingestion loop of one source against the replay until `stop`. */
export function runIngestion(
  handle: DatabaseHandle,
  replay: ReplayServer,
  source: SourceName,
  overrides: Record<string, string> = {},
): RunningIngestion {
  const config = parseConfig({
    DATA_DIR: '/nonexistent',
    ...replayEnv(replay, overrides),
    SOURCES: source,
  });
  // A fault a source handles itself (a request's next attempt, a dropped stream) costs tens of
  // milliseconds here, not seconds: only Retry-After, when a test sends it, makes it wait longer.
  const { sources } = createSources(config, silentLogger, createSourceInterests(handle.db), {
    requestBackoffMs: 20,
    streamRetryMs: 100,
  });
  const [connector] = sources;
  if (!connector) throw new Error(`${source} is not configured`);
  const tracker = new RecordingTracker(source, connector.pollIntervalMs);
  const abort = new AbortController();
  const done = ingestSource(
    {
      db: handle.db,
      source: connector,
      tracker,
      logger: silentLogger,
      onStored: () => {},
      leader: 'test',
      healthWriteMs: 50,
      maxBackoffMs: 1000,
    },
    abort.signal,
  );
  return {
    tracker,
    async stop() {
      abort.abort();
      await done;
    },
  };
}

/** The external ids stored for a source, and how often each is there (always once). */
export async function storedIds(handle: DatabaseHandle, source: SourceName): Promise<string[]> {
  const result = await handle.db.execute(
    sql`select external_id from items where source = ${source} order by id`,
  );
  return rowsOf<{ external_id: string }>(result).map((row) => row.external_id);
}

export async function waitFor(
  check: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
