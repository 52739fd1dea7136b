import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setMonitorWebhook } from '../../src/core/webhooks/set-monitor-webhook.ts';
import type { DeliveryContext } from '../../src/delivery/delivery-context.ts';
import { runDeliveryPass } from '../../src/delivery/start-delivery.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import type { Delivery } from '../../src/shared/deliveries.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';
import { apiErrorOf } from '../support/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

// The webhook and email history, read from the outbox: a call that fails is deferred, then given
// up; "send again" queues the same message once, and the next pass sends it.
describe('delivery history', () => {
  let h: DeliveryHarness;
  let receiver: WebhookReceiver;
  /** Delivery with a mail relay that refuses connections: every email attempt fails. */
  let refusing: DeliveryContext;
  beforeAll(async () => {
    h = await startDeliveryHarness({
      env: {
        WEBHOOK_ALLOW_PRIVATE: 'true',
        DELIVERY_MAX_ATTEMPTS: '2',
        DELIVERY_RETRY_BASE_SECONDS: '600',
      },
    });
    receiver = await startWebhookReceiver();
    const logger = createLogger('silent');
    refusing = {
      ...h.ctx,
      mailer: createMailer({ config: { ...h.app.config, SMTP_URL: 'smtp://127.0.0.1:9' }, logger }),
    };
  });
  afterAll(async () => {
    await receiver.close();
    await refusing.mailer.close();
    await h.close();
  });

  test('failed calls and emails are listed with status, duration and why, and sent again once', async () => {
    const user = await h.app.signedInUser();
    const stranger = await h.app.signedInUser();
    const monitor = await h.addMonitor(user.sub, 'historyword');
    await setMonitorWebhook(h.ctx, {
      userId: user.sub,
      monitorId: monitor.id,
      webhook: { kind: 'json', url: receiver.url },
    });
    const calls = async (token = user.token) =>
      h.app.api(`/api/monitors/${monitor.id}/webhook/calls`, { token });
    const emails = async () =>
      (await (await h.app.api('/api/emails', { token: user.token })).json()) as Delivery[];

    receiver.script('fail', 'fail');
    await h.publish(['historyword in a title']);
    // The first pass sees the matches, the next one (a minute on) sends their batch.
    await runDeliveryPass(refusing);
    h.clock.advance(60_000);
    await runDeliveryPass(refusing);
    const [deferred] = (await (await calls()).json()) as Delivery[];
    expect(deferred).toMatchObject({
      purpose: 'alert',
      state: 'deferred',
      attempts: 1,
      responseStatus: 500,
      error: 'HTTP 500',
      matchCount: 1,
      subject: null,
    });
    expect(deferred?.durationMs).toBeGreaterThanOrEqual(0);
    expect(deferred?.lastAttemptAt).toBe(h.ctx.clock.now().toISOString());
    expect(Date.parse(deferred?.nextAttemptAt ?? '')).toBeGreaterThan(h.ctx.clock.now().getTime());
    const [deferredEmail] = await emails();
    expect(deferredEmail).toMatchObject({ state: 'deferred', attempts: 1, responseStatus: null });
    expect(deferredEmail?.error).toMatch(/ECONNREFUSED|connect/i);
    expect(deferredEmail?.subject).toContain('historyword');
    // Not failed yet: it cannot be sent again.
    const early = await h.app.api(
      `/api/monitors/${monitor.id}/webhook/calls/${deferred?.id}/send-again`,
      { token: user.token, method: 'POST' },
    );
    expect(early.status).toBe(409);

    h.clock.advance(3600_000);
    await runDeliveryPass(refusing);
    const [failed] = (await (await calls()).json()) as Delivery[];
    expect(failed).toMatchObject({
      id: deferred?.id,
      state: 'failed',
      attempts: 2,
      nextAttemptAt: null,
    });
    const [failedEmail] = await emails();
    expect(failedEmail).toMatchObject({ id: deferredEmail?.id, state: 'failed', attempts: 2 });

    // Another user's monitor and email read as not found.
    expect((await calls(stranger.token)).status).toBe(404);
    const theirs = await h.app.api(
      `/api/monitors/${monitor.id}/webhook/calls/${failed?.id}/send-again`,
      { token: stranger.token, method: 'POST' },
    );
    expect(theirs.status).toBe(404);
    const theirEmail = await h.app.api(`/api/emails/${failedEmail?.id}/send-again`, {
      token: stranger.token,
      method: 'POST',
    });
    expect(theirEmail.status).toBe(404);
    expect(await apiErrorOf(theirEmail)).toMatchObject({ code: 'NOT_FOUND' });

    const again = await h.app.api(
      `/api/monitors/${monitor.id}/webhook/calls/${failed?.id}/send-again`,
      { token: user.token, method: 'POST' },
    );
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: failed?.id, state: 'queued', error: null });
    const twice = await h.app.api(
      `/api/monitors/${monitor.id}/webhook/calls/${failed?.id}/send-again`,
      { token: user.token, method: 'POST' },
    );
    expect(twice.status).toBe(409);
    const emailAgain = await h.app.api(`/api/emails/${failedEmail?.id}/send-again`, {
      token: user.token,
      method: 'POST',
    });
    expect(emailAgain.status).toBe(200);

    await h.pass();
    const [sent] = (await (await calls()).json()) as Delivery[];
    expect(sent).toMatchObject({
      id: failed?.id,
      state: 'sent',
      attempts: 3,
      responseStatus: 200,
      error: null,
    });
    // The same message: three calls with one body, one of them taken.
    expect(receiver.calls).toHaveLength(3);
    expect(new Set(receiver.calls.map((call) => call.body)).size).toBe(1);
    expect(receiver.taken()).toHaveLength(1);
    const [sentEmail] = await emails();
    expect(sentEmail).toMatchObject({ id: failedEmail?.id, state: 'sent', error: null });
  });
});
