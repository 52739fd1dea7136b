import type { AlertFeedRow } from '../../db/schema/alert-feeds.ts';
import type { AlertFeed } from '../../shared/alert-feeds.ts';

/** The wire shape of an `alert_feeds` row: never its token's hash. */
export function toAlertFeed(row: AlertFeedRow): AlertFeed {
  return { id: row.id, monitorId: row.monitorId, createdAt: row.createdAt.toISOString() };
}
