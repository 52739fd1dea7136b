import type { OutboxRow } from '../../db/schema/delivery.ts';
import type { Delivery, DeliveryState } from '../../shared/deliveries.ts';

/** An outbox row as the history shows it: never its payload (an email's address, a body). */
export function toDelivery(row: OutboxRow): Delivery {
  const subject =
    row.channel === 'email' && typeof row.payload === 'object' && row.payload !== null
      ? (row.payload as { subject?: unknown }).subject
      : null;
  return {
    id: String(row.id),
    purpose: row.purpose,
    state: deliveryState(row),
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: row.lastAttemptAt?.toISOString() ?? null,
    nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
    attempts: row.attempts,
    responseStatus: row.lastResponseStatus,
    durationMs: row.lastDurationMs,
    error: row.status === 'sent' ? null : row.lastError,
    matchCount: row.matchIds.length,
    subject: typeof subject === 'string' ? subject : null,
  };
}

function deliveryState(row: OutboxRow): DeliveryState {
  if (row.status === 'pending') return row.lastError ? 'deferred' : 'queued';
  return row.status;
}
