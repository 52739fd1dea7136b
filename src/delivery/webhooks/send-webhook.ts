import { and, eq, sql } from 'drizzle-orm';
import { deliveryOutbox, monitorWebhooks, type OutboxRow } from '../../db/schema/delivery.ts';
import type { DeliveryContext } from '../delivery-context.ts';
import { describe, type SendOutcome } from '../drain-outbox.ts';
import type { WebhookPayload } from './decide-webhooks.ts';
import { postWebhook } from './post-webhook.ts';
import { ForbiddenWebhookAddressError } from './webhook-address.ts';
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

  const { body } = row.payload as WebhookPayload;
  const headers: Record<string, string> = {};
  if (hook.kind === 'json') {
    const t = Math.floor(ctx.clock.now().getTime() / 1000);
    headers['Earshot-Signature'] = signatureHeader(hook.secret, body, t);
  }
  let failure: { error: string; permanent: boolean };
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
      return { status: 'sent' };
    }
    // 408 and 429 say "later"; other 4xx say this call will never be taken.
    const later = response.status >= 500 || response.status === 408 || response.status === 429;
    failure = { error: `HTTP ${response.status}`, permanent: !later };
  } catch (error) {
    failure = {
      error: describe(error),
      permanent: error instanceof ForbiddenWebhookAddressError,
    };
  }

  const [counted] = await ctx.db
    .update(monitorWebhooks)
    .set({ failureCount: sql`${monitorWebhooks.failureCount} + 1` })
    .where(eq(monitorWebhooks.monitorId, hook.monitorId))
    .returning({ failureCount: monitorWebhooks.failureCount });
  if ((counted?.failureCount ?? 0) >= ctx.config.WEBHOOK_MAX_FAILURES) {
    const reason = `Paused after ${counted?.failureCount} failed calls in a row (last: ${failure.error}). Save the webhook again to resume.`;
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
    });
    ctx.logger.warn({ monitor: hook.monitorId, error: failure.error }, 'webhook paused');
    return { status: 'failed', error: failure.error, permanent: true };
  }
  return { status: 'failed', ...failure };
}
