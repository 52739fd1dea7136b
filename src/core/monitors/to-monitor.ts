import type { MonitorWebhookRow } from '../../db/schema/delivery.ts';
import type { MonitorRow, MonitorThreadMuteRow } from '../../db/schema/monitors.ts';
import { parseQuery } from '../../matcher/query-parser.ts';
import { querySources } from '../../matcher/query-sources.ts';
import type { Monitor } from '../../shared/monitor.ts';
import { toMonitorWebhook } from '../webhooks/set-monitor-webhook.ts';
import { shownMonitorSources } from './monitor-sources.ts';

const HOUR_MS = 3_600_000;

/** The wire shape of a `monitors` row, with its webhook row if it has one and its muted threads. */
export function toMonitor(
  row: MonitorRow,
  webhook: MonitorWebhookRow | null = null,
  now: Date = new Date(),
  mutedThreads: readonly MonitorThreadMuteRow[] = [],
): Monitor {
  return {
    id: row.id,
    name: row.name,
    query: row.query,
    sources: shownMonitorSources(row.sources),
    matchableSources: matchableSources(row),
    paused: row.paused,
    emailMuted: row.emailMuted,
    relevanceThreshold: row.relevanceThreshold,
    delivery: row.delivery,
    spikeAlerts: row.spikeAlerts,
    mutedThreads: mutedThreads.map((mute) => ({
      source: mute.source,
      threadId: mute.threadId,
      title: mute.title,
      mutedAt: mute.createdAt.toISOString(),
    })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    matchCount: row.matchCount,
    lastMatchAt: row.lastMatchAt?.toISOString() ?? null,
    webhook: webhook ? toMonitorWebhook(webhook) : null,
    cappedThisHour: cappedThisHour(row, now),
  };
}

/** The hourly cap's notice: set while the current clock hour has left matches out. */
function cappedThisHour(row: MonitorRow, now: Date): Monitor['cappedThisHour'] {
  const started = row.hourStartedAt?.getTime();
  if (started === undefined || row.hourDropped === 0) return null;
  const ends = started + HOUR_MS;
  if (now.getTime() >= ends) return null;
  return {
    stored: row.hourMatches,
    dropped: row.hourDropped,
    resumesAt: new Date(ends).toISOString(),
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
