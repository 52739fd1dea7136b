import type { Database } from '../db/client.ts';
import { monitors } from '../db/schema/monitors.ts';
import { createMonitorIndex, type MonitorIndex } from '../matcher/monitor-index.ts';
import { parseQuery } from '../matcher/query-parser.ts';
import { monitorMakesMatches } from '../matches/monitor-makes-matches.ts';
import {
  isSourceName,
  SOURCE_NAMES,
  type SourceName,
  watchesEverySite,
} from '../shared/sources.ts';

/**
 * Builds the index of every monitor of one shard that makes matches (`monitorMakesMatches`), with
 * the engine's bulk load. Queries were checked when saved; one that no longer parses (a stricter
 * parser) is left out, never fatal.
 */
export async function loadMonitorIndex(
  db: Database,
  shard?: { readonly index: number; readonly count: number },
): Promise<MonitorIndex> {
  const rows = await db
    .select({ id: monitors.id, query: monitors.query, sources: monitors.sources })
    .from(monitors)
    .where(monitorMakesMatches());
  const entries = rows.map((row) => ({
    id: row.id,
    query: row.query,
    ...indexSources(row.sources),
  }));
  const index = createMonitorIndex(shard ? { shard } : {});
  try {
    index.addMany(entries);
    return index;
  } catch {
    // Rare: build again without the queries that do not parse.
    const fresh = createMonitorIndex(shard ? { shard } : {});
    fresh.addMany(entries.filter((entry) => parses(entry.query)));
    return fresh;
  }
}

function parses(query: string): boolean {
  try {
    parseQuery(query);
    return true;
  } catch {
    return false;
  }
}

/**
 * A monitor's sources as the index takes them: none when it watches every source (stored as none,
 * or naming every one). Items only
 * come from those sources, so the two match the same; but a query without a source filter can
 * hang off its word directly, the engine's fastest path.
 */
export function indexSources(sources: readonly string[]): { sources?: SourceName[] } {
  if (watchesEverySite(sources)) return {};
  const watched = new Set(sources);
  if (SOURCE_NAMES.every((name) => watched.has(name))) return {};
  return { sources: sources.filter((name): name is SourceName => isSourceName(name)) };
}
