import { readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import { isSpike, medianOf } from '../../src/delivery/spikes.ts';
import type { NormalisedItem } from '../../src/sources/normalised-item.ts';
import { normaliseRedditListing } from '../../src/sources/reddit/normalise.ts';
import type { DeliveryHarness } from '../support/delivery-harness.ts';
import { startDeliverySuite } from '../support/delivery-suite.ts';

/**
 * Spike alerts (issue 25, decision 0038) on the manual clock, with recorded Reddit comments of
 * the n49rw thread replayed onto the days before and a burst of them today.
 */
const suite = startDeliverySuite();
let h: DeliveryHarness;
beforeAll(() => {
  h = suite.h();
});

const DAY = 86_400_000;
const thread = normaliseRedditListing(
  JSON.parse(
    readFileSync(
      new URL('../fixtures/recorded/reddit-thread-n49rw-2016-03-22.json', import.meta.url),
      'utf8',
    ),
  ),
).flatMap((result) => (result.status === 'item' ? [result.item] : []));
const comments = thread.filter((item) => item.kind === 'comment' && /\breddit\b/i.test(item.body));

/** The recorded comments, replayed at `at` (each its own copy, so each is a new item). */
const replay = (items: readonly NormalisedItem[], at: number, tag: string) =>
  items.map((item) => ({
    ...item,
    externalId: `${item.externalId}-${tag}`,
    createdAt: new Date(at).toISOString(),
  }));

test('the median over 14 days counts the quiet days as 0', () => {
  expect(medianOf([2, 2, 2])).toBe(0);
  expect(medianOf(Array(14).fill(3))).toBe(3);
  expect(isSpike(10, Array(14).fill(3))).toBe(true);
  expect(isSpike(9, [])).toBe(false); // under the minimum of 10
  expect(isSpike(12, Array(14).fill(4))).toBe(false); // not more than 3×
});

test('a burst of today’s mentions over three times the 14-day median sends one spike email naming the top thread, once a day', async () => {
  const now = Date.parse('2026-06-20T12:00:00Z');
  h.clock.set(now);
  // Daily digests (due tomorrow 08:00): the only email today is the spike's.
  const user = await h.addUser({ emailAlerts: 'daily' });
  const monitor = await h.addMonitor(user.id, 'reddit', { name: 'Reddit', spikeAlerts: true });
  const quiet = await h.addUser({ emailAlerts: 'daily' });
  await h.addMonitor(quiet.id, 'reddit', { name: 'Calm' });
  expect(comments.length).toBeGreaterThanOrEqual(44);
  // The thread's post, as recorded (it does not match): the comments take its title.
  await h.publishItems(thread.filter((item) => item.kind === 'post'));
  for (let back = 1; back <= 14; back++) {
    const pair = comments.slice(2 * (back - 1), 2 * back);
    await h.publishItems(replay(pair, now - back * DAY, `d${back}`));
  }
  // Before the burst: 2 a day, nothing to say.
  await h.pass();
  expect(suite.sink().pending(user.email)).toHaveLength(0);

  await h.publishItems(replay(comments.slice(28, 40), now - 3_600_000, 'today'));
  await h.pass();
  const mail = await suite.sink().waitForMail(user.email);
  expect(mail.subject).toBe('Spike: 12 mentions of “Reddit” today');
  expect(mail.text).toContain('12 mentions today, usually 2 a day over the last 14 days.');
  expect(mail.text).toContain("* We're back (12)");
  expect(mail.text).toContain(`dashboard/alerts?monitor=${monitor.id}`);
  expect(mail.text).toContain("* We're back (12)\n  https://www.reddit.com/comments/n49rw/");
  // Once a day: more of the burst later today sends nothing more; nor does the other monitor.
  await h.publishItems(replay(comments.slice(40, 44), now - 1_800_000, 'later'));
  h.clock.advance(3_600_000);
  await h.pass();
  expect(suite.sink().pending(user.email)).toHaveLength(0);
  expect(suite.sink().pending(quiet.email)).toHaveLength(0);
});
