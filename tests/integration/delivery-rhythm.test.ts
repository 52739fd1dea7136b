import { beforeAll, expect, test } from 'vitest';
import { setMonitorWebhook } from '../../src/core/webhooks/set-monitor-webhook.ts';
import type { DeliveryHarness } from '../support/delivery-harness.ts';
import { startDeliverySuite } from '../support/delivery-suite.ts';
import type { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * A rhythm per monitor and quiet hours per user (issue 25, decision 0038), on the manual clock:
 * each monitor's matches go out on its own rhythm, across a DST change and in a half-hour zone.
 */
const suite = startDeliverySuite();
let h: DeliveryHarness;
let receiver: WebhookReceiver;
beforeAll(() => {
  h = suite.h();
  receiver = suite.receiver();
});
const sink = suite.sink;
const at = (iso: string) => h.clock.set(Date.parse(iso));
/**
 * Passes every quarter of an hour until `until`, and one at `until` (the loop passes every few
 * seconds; a batch is due at an instant, so any pass after it sends it).
 */
async function runUntil(until: string) {
  const end = Date.parse(until);
  await h.pass();
  while (h.clock.now().getTime() < end) {
    h.clock.set(Math.min(end, h.clock.now().getTime() + 15 * 60_000));
    await h.pass();
  }
}

test('an instant, a weekly and a feed-only monitor side by side, across the end of summer time', async () => {
  // Paris leaves summer time on Sunday 25 October 2026: Monday 08:00 is then 07:00 UTC.
  at('2026-10-23T10:00:00Z'); // Friday, 12:00 in Paris
  const user = await h.addUser({ timezone: 'Europe/Paris' });
  const instant = await h.addMonitor(user.id, 'tokio', { name: 'Tokio' });
  const weekly = await h.addMonitor(user.id, 'axum', { name: 'Axum', delivery: 'weekly' });
  const feed = await h.addMonitor(user.id, 'hyper', { name: 'Hyper', delivery: 'feed' });
  await setMonitorWebhook(h.ctx, {
    userId: user.id,
    monitorId: feed.id,
    webhook: { kind: 'json', url: receiver.url },
  });
  await h.publish(['tokio 2.0', 'axum 1.0', 'hyper 2.0']);
  await runUntil('2026-10-23T10:01:00Z');
  const first = await sink().waitForMail(user.email);
  expect(first.subject).toBe('1 new mention of “Tokio”');

  // The weekend passes: nothing more, though the weekly match waits.
  await h.publish(['axum on the weekend']);
  await runUntil('2026-10-26T06:59:00Z');
  expect(sink().pending(user.email)).toHaveLength(0);
  await runUntil('2026-10-26T07:00:00Z');
  const weeklyMail = await sink().waitForMail(user.email);
  expect(weeklyMail.subject).toBe('2 new mentions of “Axum”');
  expect(weeklyMail.text).not.toContain('hyper');

  // The feed-only monitor sent nothing anywhere, and kept its matches in the feed.
  await runUntil('2026-10-26T08:00:00Z');
  expect(sink().pending(user.email)).toHaveLength(0);
  expect(receiver.calls).toHaveLength(0);
  const page = await h.db.query.matches.findMany({
    where: (m, { eq }) => eq(m.monitorId, feed.id),
  });
  expect(page).toHaveLength(1);
  expect(instant.id).not.toBe(weekly.id);
});

test('quiet hours in a half-hour zone hold instant alerts and release them as one email', async () => {
  // Kolkata is UTC+05:30 all year: 22:00 there is 16:30 UTC, 07:00 is 01:30 UTC.
  at('2026-06-10T16:00:00Z'); // 21:30
  const user = await h.addUser({
    timezone: 'Asia/Kolkata',
    quietHours: { start: '22:00', end: '07:00' },
  });
  await h.addMonitor(user.id, 'pglite');
  await h.publish(['pglite before the quiet']);
  await runUntil('2026-06-10T16:01:00Z');
  expect((await sink().waitForMail(user.email)).subject).toBe('1 new mention of “pglite”');

  at('2026-06-10T16:45:00Z'); // 22:15, quiet
  await h.publish(['pglite at night']);
  await runUntil('2026-06-10T20:00:00Z'); // 01:30
  await h.publish(['pglite later at night']);
  await runUntil('2026-06-11T01:29:00Z'); // 06:59
  expect(sink().pending(user.email)).toHaveLength(0);
  await runUntil('2026-06-11T01:30:00Z'); // 07:00
  const morning = await sink().waitForMail(user.email);
  expect(morning.subject).toBe('2 new mentions of “pglite”');
  await runUntil('2026-06-11T02:00:00Z');
  expect(sink().pending(user.email)).toHaveLength(0);

  // After them, instant again.
  await h.publish(['pglite in the morning']);
  await runUntil('2026-06-11T02:01:00Z');
  expect((await sink().waitForMail(user.email)).subject).toBe('1 new mention of “pglite”');
});
