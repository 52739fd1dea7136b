import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import type { PipelineLogger } from './logger.ts';

export type PruneOptions = {
  readonly retentionDays: number;
  /** Every shard of the current configuration ("k/n"): an item is pruned only once all matched it. */
  readonly shards: readonly string[];
  /** Rows a statement deletes at most, so pruning never holds locks for long. */
  readonly batch?: number;
  /** monitor_changes rows are kept this long (a worker reads them within a second). */
  readonly changesKeepMs?: number;
};

/**
 * Deletes items older than the retention (matches keep their own copy of what they show) and old
 * monitor_changes rows, a small batch per statement. Returns the
 * rows deleted.
 */
export async function pruneOnce(
  db: Database,
  options: PruneOptions,
  signal?: AbortSignal,
): Promise<{ items: number; changes: number }> {
  const batch = options.batch ?? 500;
  const cutoff = new Date(Date.now() - options.retentionDays * 86_400_000);
  const keepChanges = new Date(Date.now() - (options.changesKeepMs ?? 3_600_000));
  const shards = options.shards;
  let items = 0;
  for (;;) {
    if (signal?.aborted) break;
    const result = await db.execute(sql`
      with matched as (
        select case when count(*) = ${shards.length} then min(last_item_id) else 0 end as upto
        from match_cursors where shard in (${sql.join(
          shards.map((s) => sql`${s}`),
          sql`, `,
        )})
      ), doomed as (
        select id from items, matched
        where created_at < ${cutoff} and id <= matched.upto
        order by id limit ${batch}
      )
      delete from items where id in (select id from doomed) returning id`);
    const n = rowsOf(result).length;
    items += n;
    if (n < batch) break;
    await sleep(20, undefined, { signal }).catch(() => {});
  }
  let changes = 0;
  for (;;) {
    if (signal?.aborted) break;
    const result = await db.execute(sql`
      delete from monitor_changes where id in (
        select id from monitor_changes where at < ${keepChanges} order by id limit ${batch * 4}
      ) returning id`);
    const n = rowsOf(result).length;
    changes += n;
    if (n < batch * 4) break;
  }
  return { items, changes };
}

/** Prunes every `everyMs` until `signal` aborts (run by one worker, the maintenance leader). */
export async function pruneLoop(
  db: Database,
  options: PruneOptions & { readonly everyMs?: number; readonly logger: PipelineLogger },
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    try {
      const pruned = await pruneOnce(db, options, signal);
      if (pruned.items + pruned.changes > 0) options.logger.info(pruned, 'pruned old rows');
    } catch (error) {
      options.logger.warn({ err: error }, 'pruning failed; retrying later');
    }
    try {
      await sleep(options.everyMs ?? 10 * 60_000, undefined, { signal });
    } catch {
      break;
    }
  }
}
