import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../db/client.ts';
import type { MatchEvents } from '../matches/match-events.ts';
import { MonitorFollower } from './follow-monitors.ts';
import { loadMonitorIndex } from './load-monitor-index.ts';
import type { PipelineLogger } from './logger.ts';
import { matchNewItems } from './match-new-items.ts';
import type { Nudge } from './nudge.ts';

export type MatchShardDeps = {
  readonly db: Database;
  readonly events: MatchEvents;
  readonly logger: PipelineLogger;
  readonly shard: { readonly index: number; readonly count: number };
  /** MONITOR_MATCHES_PER_HOUR (`storeMatches`). */
  readonly matchesPerHour?: number;
  /** Woken when items are stored or monitors change; the loop also polls every `pollMs`. */
  readonly nudge: Nudge;
  readonly pollMs?: number;
  /** Told once the index is loaded (start-up time is measured by the benchmark). */
  readonly onReady?: (monitors: number, ms: number) => void;
};

/**
 * The matching loop of one shard, run by the worker that holds it: load the shard's monitors,
 * then follow monitor changes and match every item stored after the shard's cursor, woken by
 * the ingestion loops (or by the poll). A database fault is logged and retried. Returns when
 * `signal` aborts.
 */
export async function matchShard(deps: MatchShardDeps, signal: AbortSignal): Promise<void> {
  const { db, logger, shard } = deps;
  const pollMs = deps.pollMs ?? 1000;
  const name = `${shard.index}/${shard.count}`;
  let index: Awaited<ReturnType<typeof loadMonitorIndex>> | null = null;
  const follower = new MonitorFollower(db, () => index as never, logger);
  let failures = 0;
  while (!signal.aborted) {
    try {
      if (!index) {
        const started = performance.now();
        await follower.start();
        index = await loadMonitorIndex(db, shard);
        const ms = Math.round(performance.now() - started);
        logger.info({ shard: name, monitors: index.size, ms }, 'monitor index loaded');
        deps.onReady?.(index.size, ms);
      }
      await follower.apply();
      const result = await matchNewItems({
        db,
        index,
        events: deps.events,
        shard,
        ...(deps.matchesPerHour ? { matchesPerHour: deps.matchesPerHour } : {}),
      });
      failures = 0;
      if (!result.more) await deps.nudge.wait(pollMs, signal);
    } catch (error) {
      if (signal.aborted) break;
      failures++;
      logger.warn({ shard: name, failures, err: error }, 'matching failed; retrying');
      try {
        await sleep(Math.min(30_000, 250 * 2 ** Math.min(failures, 7)), undefined, { signal });
      } catch {
        break;
      }
    }
  }
}
