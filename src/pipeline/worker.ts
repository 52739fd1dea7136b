import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { MatchEvents } from '../matches/match-events.ts';
import { SOURCE_NAMES, type SourceName } from '../shared/sources.ts';
import { isSourceConfigured } from '../sources/configured-sources.ts';
import { createSources, type SourceSettings } from './create-sources.ts';
import { ingestSource } from './ingest-source.ts';
import { createLeadership, PROCESS_NAME } from './leadership.ts';
import type { PipelineLogger } from './logger.ts';
import { matchShard } from './match-shard.ts';
import { NudgeHub } from './nudge.ts';
import { pollFeedsLoop } from './poll-feeds.ts';
import { pruneLoop } from './prune.ts';
import { SourceHealthTracker, writeNotConfigured } from './source-health-tracker.ts';
import { createSourceInterests } from './watched-repositories.ts';

export type WorkerSettings = SourceSettings &
  Pick<Config, 'ITEM_RETENTION_DAYS' | 'MATCH_SHARDS' | 'MATCH_SHARDS_PER_WORKER'> &
  Partial<Pick<Config, 'MONITOR_MATCHES_PER_HOUR'>>;

export type WorkerOptions = {
  readonly config: WorkerSettings;
  readonly database: DatabaseHandle;
  readonly events: MatchEvents;
  readonly logger: PipelineLogger;
  /** How often a standby tries to take a lease (and the lease connection is checked). */
  readonly leaseRetryMs?: number;
  /** The matchers' poll when no nudge comes. */
  readonly matchPollMs?: number;
  readonly pruneEveryMs?: number;
  readonly healthWriteMs?: number;
  /** Told when a shard's index is loaded. */
  readonly onShardReady?: (shard: string, monitors: number, ms: number) => void;
};

export type Worker = {
  /** The leases this process holds now ("source:hackernews", "shard:0/1", "maintenance"). */
  held(): string[];
  stop(): Promise<void>;
};

// Lease keys (second int of the advisory lock): the first three sources 1-3, maintenance 9,
// later sources 100 + their place in the list (new sites are added at its end), shards 1000 + k.
const FIRST_SOURCE_KEYS: Partial<Record<SourceName, number>> = {
  hackernews: 1,
  reddit: 2,
  lobsters: 3,
};
const sourceKey = (name: SourceName): number =>
  FIRST_SOURCE_KEYS[name] ?? 100 + SOURCE_NAMES.indexOf(name);
const MAINTENANCE_KEY = 9;
const SHARD_KEY_BASE = 1000;

/**
 * The background half of Earshot (docs/decisions/0012-ingestion-worker-and-leadership.md): one
 * ingestion loop per configured source, in the one process that leads it; matching loops for
 * the shards this process holds, woken when items are stored; pruning by one leader. Any
 * number of workers may run on one PostgreSQL server; on PGlite the one process does it all.
 */
export async function startWorker(options: WorkerOptions): Promise<Worker> {
  const { config, database, logger } = options;
  const db = database.db;
  const { sources, off } = createSources(config, logger, createSourceInterests(db));
  for (const source of off) {
    await writeNotConfigured(db, source).catch((error: unknown) =>
      logger.warn({ source, err: error }, 'cannot record a source as not configured'),
    );
  }
  const hub = new NudgeHub();
  const leadership = createLeadership(database, { retryMs: options.leaseRetryMs, logger });
  leadership.listen('items_stored', () => hub.wake());
  leadership.listen('monitors_changed', () => hub.wake());

  for (const source of sources) {
    leadership.lead(`source:${source.name}`, sourceKey(source.name), (signal) =>
      ingestSource(
        {
          db,
          source,
          tracker: new SourceHealthTracker(source.name, source.pollIntervalMs),
          logger,
          onStored: () => hub.wake(),
          leader: PROCESS_NAME,
          healthWriteMs: options.healthWriteMs,
        },
        signal,
      ),
    );
  }

  // The feeds users add: one leader polls them all, each on its own schedule (poll-feeds.ts).
  if (isSourceConfigured(config, 'feeds')) {
    leadership.lead('source:feeds', sourceKey('feeds'), (signal) =>
      pollFeedsLoop(
        { db, config, logger, onStored: () => hub.wake(), leader: PROCESS_NAME },
        signal,
      ),
    );
  }

  const count = config.MATCH_SHARDS;
  const shards = Array.from({ length: count }, (_, k) => ({
    name: `${k}/${count}`,
    key: SHARD_KEY_BASE + k,
  }));
  leadership.leadSome(
    shards.map(({ name, key }) => ({ name: `shard:${name}`, key })),
    config.MATCH_SHARDS_PER_WORKER ?? count,
    async (lease, signal) => {
      const index = Number(lease.slice('shard:'.length).split('/')[0]);
      const registration = hub.register();
      try {
        await matchShard(
          {
            db,
            events: options.events,
            logger,
            shard: { index, count },
            ...(config.MONITOR_MATCHES_PER_HOUR
              ? { matchesPerHour: config.MONITOR_MATCHES_PER_HOUR }
              : {}),
            nudge: registration.nudge,
            pollMs: options.matchPollMs ?? 500,
            onReady: (monitors, ms) => options.onShardReady?.(`${index}/${count}`, monitors, ms),
          },
          signal,
        );
      } finally {
        registration.release();
      }
    },
  );

  leadership.lead('maintenance', MAINTENANCE_KEY, (signal) =>
    pruneLoop(
      db,
      {
        retentionDays: config.ITEM_RETENTION_DAYS,
        shards: shards.map((shard) => shard.name),
        everyMs: options.pruneEveryMs,
        logger,
      },
      signal,
    ),
  );

  logger.info(
    {
      sources: sources.map((source) => source.name),
      off: off.length === SOURCE_NAMES.length ? 'all' : off,
      shards: count,
      process: PROCESS_NAME,
    },
    'worker started',
  );
  return { held: () => leadership.held(), stop: () => leadership.stop() };
}
