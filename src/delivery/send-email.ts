import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { OutboxRow } from '../db/schema/delivery.ts';
import { users } from '../db/schema/users.ts';
import { describeError } from '../platform/describe-error.ts';
import type { DeliveryContext } from './delivery-context.ts';
import type { SendOutcome } from './drain-outbox.ts';
import { readPayload } from './outbox.ts';

/**
 * Sends one email row through the mailer. An alert for someone who has since turned alerts off
 * (or unsubscribed) is cancelled rather than sent. The Message-ID is derived from the row, so
 * every attempt of one row carries the same one and a receiving server can fold a repeat.
 */
export async function sendEmail(row: OutboxRow, ctx: DeliveryContext): Promise<SendOutcome> {
  const payload = readPayload(row, 'email');
  if (!payload)
    return { status: 'failed', error: 'not an email this version can read', permanent: true };
  if (row.purpose === 'alert') {
    const [user] = await ctx.db
      .select({ emailAlerts: users.emailAlerts })
      .from(users)
      .where(eq(users.id, row.userId));
    if (!user) return { status: 'cancelled', reason: 'the user is gone' };
    if (user.emailAlerts === 'off') {
      return { status: 'cancelled', reason: 'email alerts were turned off' };
    }
  }
  try {
    await ctx.mailer.send({
      // A parsed address, never a string for nodemailer to read a display name out of.
      to: { address: payload.to },
      subject: payload.subject,
      text: payload.text,
      html: payload.html,
      headers: payload.headers,
      messageId: outboxMessageId(row, ctx.config.publicUrl),
    });
    return { status: 'sent' };
  } catch (error) {
    const responseCode =
      error instanceof Error && 'responseCode' in error ? Number(error.responseCode) : 0;
    // 5xx: the relay refuses this message for good (bad address, policy); 4xx and network: later.
    return {
      status: 'failed',
      error: describeError(error),
      permanent: responseCode >= 500,
      ...(responseCode > 0 ? { responseStatus: responseCode } : {}),
    };
  }
}

/** `<outbox-42.Xy3…@earshot.example>`: stable per row, unique across databases. */
export function outboxMessageId(row: Pick<OutboxRow, 'id' | 'dedupeKey'>, publicUrl: string) {
  const host = new URL(publicUrl).hostname || 'earshot.local';
  const tag = createHash('sha256').update(row.dedupeKey).digest('base64url').slice(0, 16);
  return `<outbox-${row.id}.${tag}@${host}>`;
}
