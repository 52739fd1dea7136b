import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { monitors } from '../db/schema/monitors.ts';
import { createMonitorIndex, type MonitorIndex } from '../matcher/monitor-index.ts';
import { parseQuery } from '../matcher/query-parser.ts';

/**
 * Builds the index of every active (not paused) monitor of one shard with the engine's bulk
 * load. Queries were checked when saved; one that no longer parses (a stricter parser) is left
 * out, never fatal.
 */
export async function loadMonitorIndex(
  db: Database,
  shard?: { readonly index: number; readonly count: number },
): Promise<MonitorIndex> {
  const rows = await db
    .select({ id: monitors.id, query: monitors.query, sources: monitors.sources })
    .from(monitors)
    .where(eq(monitors.paused, false));
  const entries = rows.map((row) => ({ id: row.id, query: row.query, sources: row.sources }));
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
