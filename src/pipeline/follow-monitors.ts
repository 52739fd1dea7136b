import { gt, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { monitorChanges, monitors } from '../db/schema/monitors.ts';
import type { MonitorIndex } from '../matcher/monitor-index.ts';
import { monitorMakesMatches } from '../matches/monitor-makes-matches.ts';
import { indexSources } from './load-monitor-index.ts';
import type { PipelineLogger } from './logger.ts';

/**
 * Change ids are taken when a transaction writes, not when it commits, so a change can become
 * visible after one with a higher id. Each read looks this far back and skips what it applied.
 */
const LOOK_BACK = 200;

/**
 * Keeps an in-memory index in step with the `monitors` table by reading `monitor_changes` (kept
 * by a trigger) after the last change applied: each changed monitor is read again and added,
 * replaced, or removed (deleted, or no longer making matches: `monitorMakesMatches`). Start it
 * before loading the index, so no change made during the load is missed (applying one twice is
 * harmless).
 */
export class MonitorFollower {
  readonly #db: Database;
  readonly #index: () => MonitorIndex;
  readonly #logger: PipelineLogger;
  #last = 0;
  readonly #applied = new Set<number>();

  constructor(db: Database, index: () => MonitorIndex, logger: PipelineLogger) {
    this.#db = db;
    this.#index = index;
    this.#logger = logger;
  }

  /** Remembers where the change log is now; call before loading the index. */
  async start(): Promise<void> {
    const [row] = await this.#db
      .select({ last: sql<number>`coalesce(max(${monitorChanges.id}), 0)::bigint` })
      .from(monitorChanges);
    this.#last = Number(row?.last ?? 0);
  }

  /** Applies the changes logged since the last call; returns how many monitors changed. */
  async apply(): Promise<number> {
    const changes = await this.#db
      .select({ id: monitorChanges.id, monitorId: monitorChanges.monitorId })
      .from(monitorChanges)
      .where(gt(monitorChanges.id, Math.max(0, this.#last - LOOK_BACK)))
      .orderBy(monitorChanges.id)
      .limit(10_000);
    const fresh = changes.filter((change) => !this.#applied.has(change.id));
    if (fresh.length === 0) return 0;
    const ids = [...new Set(fresh.map((change) => change.monitorId))];
    const rows = new Map<string, { query: string; sources: string[]; makesMatches: boolean }>();
    for (let start = 0; start < ids.length; start += 1000) {
      for (const row of await this.#db
        .select({
          id: monitors.id,
          query: monitors.query,
          sources: monitors.sources,
          makesMatches: monitorMakesMatches(),
        })
        .from(monitors)
        .where(inArray(monitors.id, ids.slice(start, start + 1000)))) {
        rows.set(row.id, row);
      }
    }
    const index = this.#index();
    for (const id of ids) {
      const row = rows.get(id);
      if (!index.owns(id)) continue;
      if (!row?.makesMatches) {
        index.remove(id);
        continue;
      }
      try {
        if (index.has(id)) index.update(id, row.query, indexSources(row.sources));
        else index.add(id, row.query, indexSources(row.sources));
      } catch (error) {
        // A query the parser no longer accepts: the monitor matches nothing rather than stop the worker.
        index.remove(id);
        this.#logger.warn({ monitorId: id, err: error }, 'monitor query does not parse; left out');
      }
    }
    for (const change of fresh) {
      this.#applied.add(change.id);
      if (change.id > this.#last) this.#last = change.id;
    }
    for (const id of this.#applied) if (id <= this.#last - LOOK_BACK) this.#applied.delete(id);
    return ids.length;
  }
}
