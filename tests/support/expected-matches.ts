import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/client.ts';
import { items } from '../../src/db/schema/items.ts';
import { monitors } from '../../src/db/schema/monitors.ts';
import { createMonitorIndex } from '../../src/matcher/monitor-index.ts';
import { indexSources } from '../../src/pipeline/load-monitor-index.ts';

/**
 * Every `monitor|source|externalId` the engine finds among the stored items, found directly; a
 * monitor with no site stored watches every site, as the workers read it.
 */
export async function expectedMatchKeys(db: Database): Promise<string[]> {
  const index = createMonitorIndex();
  for (const monitor of await db.select().from(monitors)) {
    if (!monitor.paused) index.add(monitor.id, monitor.query, indexSources(monitor.sources));
  }
  const keys: string[] = [];
  for (const item of await db.select().from(items)) {
    for (const hit of index.match(item))
      keys.push(`${hit.monitorId}|${item.source}|${item.externalId}`);
  }
  return keys.sort();
}

/** Every stored match as `monitor|source|externalId`, duplicates kept. */
export async function storedMatchKeys(db: Database): Promise<string[]> {
  const rows = rowsOf<{ key: string }>(
    await db.execute(
      sql`select monitor_id || '|' || source || '|' || external_id as key from matches`,
    ),
  );
  return rows.map((row) => row.key).sort();
}
