import { and, eq, sql } from 'drizzle-orm';
import { deliveryOutbox, monitorWebhooks, type OutboxRow } from '../../db/schema/delivery.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { users } from '../../db/schema/users.ts';
import { describeError } from '../../platform/describe-error.ts';
import { html, renderHtmlDocument } from '../../platform/html.ts';
import { ForbiddenAddressError } from '../../platform/public-address.ts';
import { monitorLabel } from '../alert-email.ts';
import { type DeliveryContext, deliveryLinks } from '../delivery-context.ts';
import type { SendOutcome } from '../drain-outbox.ts';
import { type OutboxMessage, queueMessage, readPayload } from '../outbox.ts';
import { postWebhook } from './post-webhook.ts';
import { signatureHeader } from './webhook-payloads.ts';

/**
 * Sends one webhook row to the monitor's current webhook (its URL and secret are read now, so an
 * edit applies to calls already queued). A 2xx is success and resets the failure count; anything
 * else counts a failure, and WEBHOOK_MAX_FAILURES in a row pause the webhook: its queued calls are
 * cancelled and the Monitors page shows why, until the owner saves it again.
 */
export async function sendWebhook(row: OutboxRow, ctx: DeliveryContext): Promise<SendOutcome> {
  if (!row.monitorId) return { status: 'cancelled', reason: 'no monitor' };
  const [hook] = await ctx.db
    .select()
    .from(monitorWebhooks)
    .where(eq(monitorWebhooks.monitorId, row.monitorId));
  if (!hook) return { status: 'cancelled', reason: 'the webhook was removed' };
  if (hook.pausedAt) return { status: 'cancelled', reason: 'the webhook is paused' };

  const payload = readPayload(row, 'webhook');
  if (!payload) {
    return { status: 'failed', error: 'not a webhook call this version can read', permanent: true };
  }
  const { body } = payload;
  const headers: Record<string, string> = {};
  if (hook.kind === 'json') {
    const t = Math.floor(ctx.clock.now().getTime() / 1000);
    headers['Earshot-Signature'] = signatureHeader(hook.secret, body, t);
  }
  let failure: { error: string; permanent: boolean; responseStatus?: number };
  try {
    const response = await postWebhook({
      url: hook.url,
      body,
      headers,
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE,
    });
    if (response.status >= 200 && response.status < 300) {
      if (hook.failureCount > 0) {
        await ctx.db
          .update(monitorWebhooks)
          .set({ failureCount: 0 })
          .where(eq(monitorWebhooks.monitorId, hook.monitorId));
      }
      return { status: 'sent', responseStatus: response.status };
    }
    // 408 and 429 say "later"; other 4xx say this call will never be taken.
    const later = response.status >= 500 || response.status === 408 || response.status === 429;
    failure = {
      error: `HTTP ${response.status}`,
      permanent: !later,
      responseStatus: response.status,
    };
  } catch (error) {
    failure = {
      error: describeError(error),
      permanent: error instanceof ForbiddenAddressError,
    };
  }

  const [counted] = await ctx.db
    .update(monitorWebhooks)
    .set({ failureCount: sql`${monitorWebhooks.failureCount} + 1` })
    .where(eq(monitorWebhooks.monitorId, hook.monitorId))
    .returning({ failureCount: monitorWebhooks.failureCount });
  if ((counted?.failureCount ?? 0) >= ctx.config.WEBHOOK_MAX_FAILURES) {
    const reason = `Paused after ${counted?.failureCount} failed calls in a row (last: ${failure.error}). Save the webhook again to resume.`;
    const notice = await pausedNotice(ctx, hook.monitorId, hook.userId, reason);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(monitorWebhooks)
        .set({ pausedAt: ctx.clock.now(), pausedReason: reason.slice(0, 500), pendingSince: null })
        .where(eq(monitorWebhooks.monitorId, hook.monitorId));
      await tx
        .update(deliveryOutbox)
        .set({ status: 'cancelled', lastError: 'the webhook was paused' })
        .where(
          and(
            eq(deliveryOutbox.monitorId, hook.monitorId),
            eq(deliveryOutbox.channel, 'webhook'),
            eq(deliveryOutbox.status, 'pending'),
            sql`${deliveryOutbox.id} <> ${row.id}`,
          ),
        );
      // The owner hears of it by email too (whatever their alert mode: this is about their setup).
      if (notice) await queueMessage(tx, notice, ctx.clock.now());
    });
    ctx.logger.warn({ monitor: hook.monitorId, error: failure.error }, 'webhook paused');
    return { status: 'failed', ...failure, permanent: true };
  }
  return { status: 'failed', ...failure };
}

/** The email telling a webhook's owner it was paused, keyed so one pause queues one email. */
async function pausedNotice(
  ctx: DeliveryContext,
  monitorId: string,
  userId: string,
  reason: string,
): Promise<OutboxMessage | null> {
  const [owner] = await ctx.db
    .select({ email: users.email, name: monitors.name, query: monitors.query })
    .from(monitors)
    .innerJoin(users, eq(users.id, monitors.userId))
    .where(eq(monitors.id, monitorId));
  if (!owner) return null;
  const now = ctx.clock.now();
  const links = deliveryLinks(ctx.config, ctx.tokens.sign(userId));
  const label = monitorLabel({ id: monitorId, name: owner.name, query: owner.query });
  const subject = `Your webhook for “${label}” is paused`;
  const text = [
    `Earshot stopped calling the webhook of your monitor “${label}”.`,
    '',
    reason,
    '',
    `Check the address, then save the webhook again on the Monitors page: ${links.monitors}`,
    'Matches keep arriving in your dashboard meanwhile.',
    '',
  ].join('\n');
  const body = renderHtmlDocument(html`<html lang="en">
    <head>
      <meta charSet="utf-8" />
      <meta name="color-scheme" content="light dark" />
    </head>
    <body style=${{ fontFamily: '-apple-system,Segoe UI,Roboto,sans-serif', lineHeight: 1.5, padding: '16px' }}>
      <p>Earshot stopped calling the webhook of your monitor “${label}”.</p>
      <p>${reason}</p>
      <p><a href=${links.monitors}>Open the Monitors page</a> to check the address and save the webhook again. Matches keep arriving in your dashboard meanwhile.</p>
    </body>
  </html>`);
  return {
    channel: 'email',
    purpose: 'notice',
    userId,
    monitorId,
    about: monitorId,
    unique: `paused ${now.toISOString()}`,
    payload: { to: owner.email, subject, text, html: body, headers: {} },
  };
}
