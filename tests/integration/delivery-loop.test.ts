import { afterAll, beforeAll, expect, test } from 'vitest';
import { startDelivery } from '../../src/delivery/start-delivery.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';

let h: DeliveryHarness;
beforeAll(async () => {
  // A poll so slow it never fires within the test: only the new-match nudge can wake the loop.
  h = await startDeliveryHarness({
    env: { ALERT_BATCH_SECONDS: '0', DELIVERY_POLL_MS: '600000' },
  });
});
afterAll(async () => {
  await h.close();
});

test('startDelivery runs on its own, is woken by new matches, and stops cleanly', async () => {
  const logger = createLogger('silent');
  const mailer = createMailer({ config: h.app.config, logger });
  const stop = await startDelivery({
    db: h.db,
    config: h.app.config,
    logger,
    mailer,
    events: h.events,
  });
  try {
    const user = await h.addUser();
    await h.addMonitor(user.id, 'nudge');
    // Give the first (empty) pass time to finish, so the mail below is the nudge's doing.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await h.publish(['nudge me']);
    const mail = await h.app.smtp?.waitForMail(user.email, 5000);
    expect(mail?.subject).toBe('1 new mention of “nudge”');
    expect(Date.now() - started).toBeLessThan(5000);
  } finally {
    await stop();
    await mailer.close();
  }
});
