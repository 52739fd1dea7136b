import { afterAll, beforeAll, expect, test } from 'vitest';
import { setMonitorWebhook } from '../../src/core/webhooks/set-monitor-webhook.ts';
import { type MatchPage, matchSchema } from '../../src/shared/match.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';
import { recordedHackerNewsItem } from '../support/replay-corpus.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * What an alert shows of its context (docs/product.md, "Matches and alerts"), end to end from
 * recorded Hacker News items through the pipeline to the API, the email and the webhook.
 */
let h: DeliveryHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  h = await startDeliveryHarness({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

const recorded = recordedHackerNewsItem;

const STORY = '‘It’s Mutilation’: The Police in Chile Are Blinding Protesters';

test('a comment names its thread, a title hit is marked, one item of two monitors is one entry', async () => {
  h.clock.set(Date.parse('2026-06-10T10:00:00Z'));
  const user = await h.app.signedInUser();
  const userId = user.sub;
  const uyghurs = await h.addMonitor(userId, 'uyghurs', { name: 'Xinjiang' });
  const chile = await h.addMonitor(userId, 'chile', { name: 'Chile' });
  const police = await h.addMonitor(userId, 'police', { name: 'Police' });
  await h.addMonitor(userId, 'effect', { name: 'Effects' });
  await setMonitorWebhook(h.ctx, {
    userId,
    monitorId: uyghurs.id,
    webhook: { kind: 'json', url: receiver.url },
  });

  // The story first; its comments in a later batch, the second a reply to the first: the thread
  // title comes from the stored story, through the stored parent comment.
  expect(await h.publishItems([recorded(21500569), recorded(121003)])).toBe(3);
  expect(await h.publishItems([recorded(21500829), recorded(21500985)])).toBe(1);

  const response = await h.app.api('/api/matches', { token: user.token });
  expect(response.status).toBe(200);
  const page = (await response.json()) as MatchPage;
  const byMonitor = (id: string) => page.items.filter((match) => match.monitorId === id);

  // The comment: named by its thread, linked to itself.
  const [comment] = byMonitor(uyghurs.id);
  expect(comment).toMatchObject({
    kind: 'comment',
    title: null,
    threadTitle: STORY,
    permalink: 'https://news.ycombinator.com/item?id=21500985',
    hitFields: ['body'],
  });
  expect(comment?.snippet.slice(...(comment.highlights[0] ?? [0, 0]))).toBe('Uyghurs');

  // A link post of a title alone: the hit is marked in the title, the snippet does not repeat it.
  const [byPolice] = byMonitor(police.id);
  expect(byPolice).toMatchObject({
    title: STORY,
    snippet: '',
    highlights: [],
    hitFields: ['title'],
  });
  expect(STORY.slice(...(byPolice?.titleHighlights[0] ?? [0, 0]))).toBe('Police');
  // The same post hit in its title and its URL: the URL is the snippet, with its hit.
  const [byChile] = byMonitor(chile.id);
  expect(byChile?.hitFields).toEqual(['title', 'url']);
  expect(byChile?.snippet).toBe(recorded(21500569).url);
  expect(byChile?.snippet.slice(...(byChile.highlights[0] ?? [0, 0]))).toBe('chile');

  // "Ask HN: The Arc Effect": the terms hit the title only, and that is where it is marked.
  const [arc] = page.items.filter((match) => match.title === 'Ask HN: The Arc Effect');
  expect(arc).toMatchObject({ hitFields: ['title'], titleHighlights: [[16, 22]], highlights: [] });
  expect(arc?.snippet).toMatch(/^or HN: the Next Iteration/);

  // The email: one entry for the post both monitors caught, naming both; the comment by its thread.
  await h.pass();
  h.clock.advance(60_000);
  await h.pass();
  const mail = await h.app.smtp!.waitForMail(user.email);
  const entries = mail.text.split('\n').filter((line) => line.startsWith('* '));
  expect(entries.filter((line) => line.startsWith('* ‘It’s'))).toEqual([
    `* ‘It’s Mutilation’: The *Police* in *Chile* Are Blinding Protesters`,
  ]);
  expect(entries).toContain(`* on: ${STORY}`);
  expect(mail.text).toContain('  Caught by “Chile” and “Police”\n');
  expect(mail.text).toContain('hit in the title and URL');
  expect(mail.html).toContain(
    `<a href="https://news.ycombinator.com/item?id=21500985">on: ${STORY}</a>`,
  );
  expect(mail.html).toContain('The <mark>Police</mark> in <mark>Chile</mark> Are');
  expect(mail.html).toContain('Caught by “Chile” and “Police”');
  expect(mail.html.split('Blinding Protesters</a>')).toHaveLength(3); // the post and the comment

  // The webhook: the match as the API returns it, the thread with it.
  expect(receiver.calls).toHaveLength(1);
  const body = JSON.parse(receiver.calls[0]?.body ?? '{}') as { matches: unknown[] };
  expect(body.matches.map((match) => matchSchema.parse(match))).toEqual([
    expect.objectContaining({ threadTitle: STORY, kind: 'comment', hitFields: ['body'] }),
  ]);
});
