import { setTimeout as sleep } from 'node:timers/promises';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { sourceCursors } from '../db/schema/items.ts';
import { describeError } from '../platform/describe-error.ts';
import { type Source, SourceError } from '../sources/source.ts';
import type { PipelineLogger } from './logger.ts';
import type { SourceHealthTracker } from './source-health-tracker.ts';
import { storeItems } from './store-items.ts';

export type IngestSourceDeps = {
  readonly db: Database;
  readonly source: Source;
  readonly tracker: SourceHealthTracker;
  readonly logger: PipelineLogger;
  /** Called after items were stored (wakes the matchers). */
  readonly onStored: (stored: number) => void;
  /** Who leads, for the health row. */
  readonly leader: string;
  /** Health rows are written at most this often, and at least this often times ten. */
  readonly healthWriteMs?: number;
  /** The longest wait after repeated faults. */
  readonly maxBackoffMs?: number;
};

/**
 * The ingestion loop of one source, run by its leader: read the stored cursor, fetch what is
 * new, store the items with the new cursor in one transaction, wake the matchers, repeat (at
 * once when more is waiting, else after the poll interval). A fault (the site, or the database)
 * is reported in the source's health and retried with backoff (honouring Retry-After); the
 * cursor only moves with stored items, so nothing is lost or repeated. Returns when `signal` aborts.
 */
export async function ingestSource(deps: IngestSourceDeps, signal: AbortSignal): Promise<void> {
  const { db, source, tracker, logger } = deps;
  const healthWriteMs = deps.healthWriteMs ?? 1000;
  const maxBackoffMs = deps.maxBackoffMs ?? 60_000;
  let cursor: unknown;
  let loaded = false;
  let failures = 0;
  let lastWrite = 0;
  let lastState = tracker.state;

  const writeHealth = async (force: boolean) => {
    tracker.observe(source.status?.());
    const now = Date.now();
    if (!force && tracker.state === lastState && now - lastWrite < healthWriteMs) return;
    try {
      await tracker.write(db, deps.leader);
      lastWrite = now;
      lastState = tracker.state;
    } catch (error) {
      logger.debug({ source: source.name, err: error }, 'cannot write source health');
    }
  };
  // Quiet sources (Lobsters polls every 30 s) still show they are alive.
  const heartbeat = setInterval(() => void writeHealth(true), Math.max(healthWriteMs * 10, 1000));
  heartbeat.unref();

  try {
    await writeHealth(true);
    while (!signal.aborted) {
      let wait = source.pollIntervalMs;
      try {
        if (!loaded) {
          const [row] = await db
            .select({ cursor: sourceCursors.cursor })
            .from(sourceCursors)
            .where(eq(sourceCursors.source, source.name));
          cursor = row ? source.parseCursor(row.cursor) : null;
          loaded = true;
        }
        const batch = await source.fetchNew(cursor as never, signal);
        const { stored } = await storeItems(db, {
          source: source.name,
          items: batch.items,
          cursor: batch.cursor,
        });
        cursor = batch.cursor;
        if (stored > 0) {
          deps.onStored(stored);
          await notifyStored(db);
        }
        let newest: number | null = null;
        for (const item of batch.items) {
          const at = Date.parse(item.createdAt);
          if (newest === null || at > newest) newest = at;
        }
        tracker.succeeded({
          stored,
          skipped: batch.skipped,
          newestCreatedAt: newest,
          more: batch.more,
        });
        if (failures > 0) logger.info({ source: source.name }, 'source recovered');
        failures = 0;
        if (batch.more) wait = 0;
      } catch (error) {
        if (signal.aborted) break;
        failures++;
        tracker.failed(error);
        // The stored cursor is the truth after a fault (the database may have been the fault).
        loaded = false;
        const backoff = Math.min(
          maxBackoffMs,
          source.pollIntervalMs * 2 ** Math.min(failures - 1, 10),
        );
        const asked = error instanceof SourceError ? (error.retryAfterMs ?? 0) : 0;
        wait = Math.max(backoff, Math.min(asked, 15 * 60_000));
        logger.warn(
          { source: source.name, failures, waitMs: Math.round(wait), error: describeError(error) },
          'source poll failed',
        );
      }
      await writeHealth(false);
      if (wait > 0) {
        try {
          await sleep(wait, undefined, { signal });
        } catch {
          break;
        }
      }
    }
  } finally {
    clearInterval(heartbeat);
  }
}

/** Wakes the matchers of other processes (PostgreSQL; PGlite ignores it harmlessly). */
async function notifyStored(db: Database): Promise<void> {
  try {
    await db.execute(sql`select pg_notify('items_stored', '')`);
  } catch {
    // The nudge is an optimisation: matchers also poll.
  }
}
