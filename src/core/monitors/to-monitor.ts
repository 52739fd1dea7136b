import type { MonitorWebhookRow } from '../../db/schema/delivery.ts';
import type { MonitorRow } from '../../db/schema/monitors.ts';
import { parseQuery } from '../../matcher/query-parser.ts';
import { querySources } from '../../matcher/query-sources.ts';
import type { Monitor } from '../../shared/monitor.ts';
import { toMonitorWebhook } from '../webhooks/set-monitor-webhook.ts';
import { shownMonitorSources } from './monitor-sources.ts';

/** The wire shape of a `monitors` row, with its webhook row if it has one. */
export function toMonitor(row: MonitorRow, webhook: MonitorWebhookRow | null = null): Monitor {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    sources: shownMonitorSources(row.sources),
    matchableSources: matchableSources(row),
    paused: row.paused,
    emailMuted: row.emailMuted,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    matchCount: row.matchCount,
    lastMatchAt: row.lastMatchAt?.toISOString() ?? null,
    webhook: webhook ? toMonitorWebhook(webhook) : null,
  };
}

/** The monitor's sites its query can match on (`site:hackernews`, `r/rust` narrow them). */
function matchableSources(row: MonitorRow): MonitorRow['sources'] {
  const sources = shownMonitorSources(row.sources);
  let reach: readonly string[];
  try {
    reach = querySources(parseQuery(row.query));
  } catch {
    // Every stored query parsed when saved; should the language change, claim every site.
    return sources;
  }
  return sources.filter((source) => reach.includes(source));
}
