import { eq } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { monitorWebhooks } from '../../db/schema/delivery.ts';
import { postWebhook } from '../../delivery/webhooks/post-webhook.ts';
import { buildWebhookBody, signatureHeader } from '../../delivery/webhooks/webhook-payloads.ts';
import { sampleMatch } from '../../matches/sample-match.ts';
import type { Clock } from '../../platform/clock.ts';
import { describeError } from '../../platform/describe-error.ts';
import { groupAlertEntries } from '../../shared/alert-entries.ts';
import type { WebhookTestResult } from '../../shared/webhook.ts';
import { findOwnMonitor } from './set-monitor-webhook.ts';
import { noWebhook } from './webhook-errors.ts';

/**
 * Sends a sample call to the monitor's webhook now, in the body of its kind (signed for `json`),
 * under the same address rules as real calls, and says how it went. It neither counts towards
 * pausing nor resumes a paused webhook.
 */
export async function testMonitorWebhook(
  ctx: {
    db: Database;
    config: Pick<Config, 'publicUrl' | 'WEBHOOK_ALLOW_PRIVATE' | 'WEBHOOK_TIMEOUT_MS'>;
    clock: Clock;
  },
  input: { userId: string; monitorId: string },
): Promise<WebhookTestResult> {
  const monitor = await findOwnMonitor(ctx.db, input.userId, input.monitorId);
  const [hook] = await ctx.db
    .select()
    .from(monitorWebhooks)
    .where(eq(monitorWebhooks.monitorId, monitor.id));
  if (!hook) throw noWebhook();
  const now = ctx.clock.now();
  const sample = sampleMatch({
    query: monitor.query,
    monitorId: monitor.id,
    title: `Earshot test: this is how a match of “${monitor.name || monitor.query}” arrives`,
    body: `A sample match of ${monitor.query}, sent from the Monitors page to check the webhook.`,
    now,
  });
  const body = buildWebhookBody(hook.kind, {
    monitor,
    entries: groupAlertEntries([sample]),
    alertsUrl: `${ctx.config.publicUrl}/dashboard/alerts`,
    notice: null,
  });
  const headers: Record<string, string> = {};
  if (hook.kind === 'json') {
    headers['Earshot-Signature'] = signatureHeader(
      hook.secret,
      body,
      Math.floor(now.getTime() / 1000),
    );
  }
  try {
    const { status } = await postWebhook({
      url: hook.url,
      body,
      headers,
      timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
      allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE,
    });
    const delivered = status >= 200 && status < 300;
    return { delivered, status, error: delivered ? null : `The webhook answered HTTP ${status}.` };
  } catch (error) {
    return {
      delivered: false,
      status: null,
      error: `The webhook could not be reached: ${describeError(error)}.`,
    };
  }
}
