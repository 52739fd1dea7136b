import { afterAll, afterEach, beforeAll } from 'vitest';
import { type DeliveryHarness, startDeliveryHarness } from './delivery-harness.ts';
import type { SmtpSink } from './smtp-sink.ts';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.ts';

/**
 * A test file's delivery harness with a webhook receiver (private addresses allowed), started
 * before its tests and closed after them; each test starts with no webhook calls recorded.
 */
export function startDeliverySuite(): {
  h: () => DeliveryHarness;
  receiver: () => WebhookReceiver;
  sink: () => SmtpSink;
} {
  let harness: DeliveryHarness | undefined;
  let receiver: WebhookReceiver | undefined;
  beforeAll(async () => {
    harness = await startDeliveryHarness({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
    receiver = await startWebhookReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await harness?.close();
  });
  afterEach(() => {
    if (receiver) receiver.calls.length = 0;
  });
  const started = <T>(value: T | undefined | null, what: string): T => {
    if (!value) throw new Error(`no ${what}: the suite has not started`);
    return value;
  };
  return {
    h: () => started(harness, 'harness'),
    receiver: () => started(receiver, 'webhook receiver'),
    sink: () => started(harness?.app.smtp, 'SMTP sink'),
  };
}
