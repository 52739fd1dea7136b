import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../db/client.ts';
import {
  deliveryOutbox,
  type OutboxChannel,
  type OutboxPurpose,
  type OutboxRow,
} from '../db/schema/delivery.ts';

/** An email as the outbox keeps it: rendered once, when the decision to send it is taken. */
export const emailPayloadSchema = z.object({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  headers: z.record(z.string(), z.string()),
});
export type EmailPayload = z.infer<typeof emailPayloadSchema>;

/** A webhook call as the outbox keeps it: the exact body (signed when it is sent). */
export const webhookPayloadSchema = z.object({ body: z.string() });
export type WebhookPayload = z.infer<typeof webhookPayloadSchema>;

type Payloads = { email: EmailPayload; webhook: WebhookPayload };
const PAYLOAD_SCHEMAS: { [C in OutboxChannel]: z.ZodType<Payloads[C]> } = {
  email: emailPayloadSchema,
  webhook: webhookPayloadSchema,
};

/** One message to queue, with the payload of its channel. */
export type OutboxMessage = {
  [C in OutboxChannel]: {
    readonly channel: C;
    readonly purpose: OutboxPurpose;
    readonly userId: string;
    readonly monitorId?: string | null;
    /** Whom or what the message is about, in its key: the user, the monitor. */
    readonly about: string;
    /**
     * What tells this message from the others about the same: the match ids it covers (the
     * default), or the minute of a test email, the instant of a notice.
     */
    readonly unique?: string;
    readonly matchIds?: readonly number[];
    readonly payload: Payloads[C];
  };
}[OutboxChannel];

/**
 * The outbox's one key format, `<channel>:<purpose>:<about>:<digest>`: deciding the same thing
 * twice (a repeat after a crash, two processes at once) makes the same key, so the message is
 * queued once.
 */
export function outboxKey(message: OutboxMessage): string {
  const unique = message.unique ?? (message.matchIds ?? []).join(',');
  return `${message.channel}:${message.purpose}:${message.about}:${digest(unique)}`;
}

/** A short, stable name for a value (the last part of the outbox's keys). */
function digest(value: string): string {
  return createHash('sha256').update(value).digest('base64url').slice(0, 32);
}

/**
 * The one way a message enters the outbox (docs/decisions/0015-delivery-outbox.md), in the
 * transaction that decides to send it: due at once, under its key. Returns false when a message
 * with the same key was queued before.
 */
export async function queueMessage(
  tx: Pick<Database, 'insert'>,
  message: OutboxMessage,
  now: Date,
): Promise<boolean> {
  const inserted = await tx
    .insert(deliveryOutbox)
    .values({
      channel: message.channel,
      purpose: message.purpose,
      userId: message.userId,
      monitorId: message.monitorId ?? null,
      dedupeKey: outboxKey(message),
      matchIds: [...(message.matchIds ?? [])],
      payload: message.payload,
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: deliveryOutbox.dedupeKey })
    .returning({ id: deliveryOutbox.id });
  return inserted.length > 0;
}

/** The payload of a row of `channel`, checked; null when it is not one (never sendable). */
export function readPayload<C extends OutboxChannel>(
  row: OutboxRow,
  channel: C,
): Payloads[C] | null {
  if (row.channel !== channel) return null;
  const parsed = PAYLOAD_SCHEMAS[channel].safeParse(row.payload);
  return parsed.success ? parsed.data : null;
}
