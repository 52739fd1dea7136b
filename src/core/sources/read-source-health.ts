import type { Database } from '../../db/client.ts';
import { sourceHealth } from '../../db/schema/source-health.ts';
import type { SourceHealth, SourceState } from '../../shared/source-health.ts';
import { SOURCE_NAMES } from '../../shared/sources.ts';
import { isSourceConfigured, pollSecondsOf } from '../../sources/configured-sources.ts';

/** A leader rewrites its row at least this often while it runs (pipeline/source-health-tracker.ts). */
export const HEALTH_REPORT_MS = 15_000;

/**
 * Every source's health as the workers last reported it. A configured source with no row yet
 * is lagging (starting); one whose report is older than a minute (or three polls) is failing,
 * because no worker leads it.
 */
export async function readSourceHealth(
  db: Database,
  config: Parameters<typeof isSourceConfigured>[0],
  now = Date.now(),
): Promise<SourceHealth[]> {
  const rows = new Map((await db.select().from(sourceHealth)).map((row) => [row.source, row]));
  return SOURCE_NAMES.map((source): SourceHealth => {
    const row = rows.get(source);
    const blank = {
      source,
      lastSuccessAt: null,
      lastErrorAt: null,
      lastError: null,
      itemsPerMinute: 0,
      behindSeconds: null,
      skipped: {},
      note: null,
      queue: null,
    };
    if (!isSourceConfigured(config, source)) return { ...blank, state: 'not_configured' };
    if (!row || row.state === 'not_configured') return { ...blank, state: 'lagging' };
    const staleAfter = Math.max(
      60_000,
      3 * pollSecondsOf(config, source) * 1000 + HEALTH_REPORT_MS,
    );
    const stale = now - row.updatedAt.getTime() > staleAfter;
    return {
      source,
      state: stale ? 'failing' : (row.state as SourceState),
      lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
      lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
      lastError: stale
        ? `no worker has reported for ${Math.round((now - row.updatedAt.getTime()) / 1000)} s`
        : row.lastError,
      itemsPerMinute: row.itemsPerMinute,
      behindSeconds: row.behindSeconds,
      skipped: row.skipped,
      note: row.note,
      queue: row.queue,
    };
  });
}
