import type { MonitorWebhookRow } from '../../db/schema/delivery.ts';
import type { MonitorRow } from '../../db/schema/monitors.ts';
import type { Monitor } from '../../shared/monitor.ts';
import { toMonitorWebhook } from '../webhooks/set-monitor-webhook.ts';

/** The wire shape of a `monitors` row, with its webhook row if it has one. */
export function toMonitor(row: MonitorRow, webhook: MonitorWebhookRow | null = null): Monitor {
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
    webhook: webhook ? toMonitorWebhook(webhook) : null,
  };
}
