import type { MonitorRow } from '../../db/schema/monitors.ts';
import type { Monitor } from '../../shared/monitor.ts';

/** The wire shape of a `monitors` row. */
export function toMonitor(row: MonitorRow): Monitor {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    sources: row.sources,
    paused: row.paused,
    emailMuted: row.emailMuted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    matchCount: row.matchCount,
    lastMatchAt: row.lastMatchAt?.toISOString() ?? null,
  };
}
