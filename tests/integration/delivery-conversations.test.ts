import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { setMonitorWebhook } from '../../src/core/webhooks/set-monitor-webhook.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { normaliseHackerNewsItem } from '../../src/sources/hacker-news/normalise.ts';
import { normaliseLobstersResponse } from '../../src/sources/lobsters/normalise.ts';
import type { NormalisedItem, NormaliseResult } from '../../src/sources/normalised-item.ts';
import { normaliseRedditListing } from '../../src/sources/reddit/normalise.ts';
import type { DeliveryHarness } from '../support/delivery-harness.ts';
import { startDeliverySuite } from '../support/delivery-suite.ts';
import type { ReceivedMail } from '../support/smtp-sink.ts';
import type { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * One alert per conversation and per link (issue 25), on recorded threads: the matches stay one
 * per item; the email and the webhook call show one entry per thread and per link.
 */
const recorded = new URL('../fixtures/recorded/', import.meta.url);
const readJson = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(file, recorded), 'utf8'));
const itemsOf = (results: readonly NormaliseResult[]): NormalisedItem[] =>
  results.flatMap((result) => (result.status === 'item' ? [result.item] : []));
const hnItems = new Map(
  readFileSync(new URL('hn-items.jsonl', recorded), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: number })
    .map((item) => [item.id, item]),
);

const suite = startDeliverySuite();
let h: DeliveryHarness;
let receiver: WebhookReceiver;
beforeAll(() => {
  h = suite.h();
  receiver = suite.receiver();
});
const sink = suite.sink;
/** The webhook calls of one monitor (earlier tests' monitors may match these items too). */
const callsOf = (monitorId: string) =>
  receiver.calls
    .map((call) => JSON.parse(call.body))
    .filter((body) => body.monitor?.id === monitorId);
/** The entries of the plain-text part: each starts with "* " at the start of a line. */
const entryLines = (mail: ReceivedMail) => mail.text.split('\n').filter((l) => l.startsWith('* '));

async function monitorWithWebhook(query: string) {
  const user = await h.addUser({ emailAlerts: 'instant' });
  const monitor = await h.addMonitor(user.id, query);
  await setMonitorWebhook(h.ctx, {
    userId: user.id,
    monitorId: monitor.id,
    webhook: { kind: 'json', url: receiver.url },
  });
  return { user, monitor };
}

async function deliver() {
  await h.pass();
  h.clock.advance(60_000);
  await h.pass();
}

async function storedMatches(monitorId: string) {
  return h.db
    .select({ kind: matches.kind, threadId: matches.threadId })
    .from(matches)
    .where(and(eq(matches.monitorId, monitorId)));
}

test('a Reddit thread with dozens of matching comments is one email entry and one webhook call', async () => {
  const { user, monitor } = await monitorWithWebhook('reddit');
  const thread = itemsOf(normaliseRedditListing(readJson('reddit-thread-n49rw-2016-03-22.json')));
  await h.publishItems(thread);
  const stored = await storedMatches(monitor.id);
  const comments = stored.filter((match) => match.kind === 'comment');
  // Stored one per item, each knowing its thread.
  expect(comments.length).toBeGreaterThanOrEqual(30);
  expect(new Set(stored.map((match) => match.threadId))).toEqual(new Set(['t3_n49rw']));

  await deliver();
  const mail = await sink().waitForMail(user.email);
  expect(mail.subject).toBe(`${stored.length} new mentions of “reddit”`);
  const entries = entryLines(mail);
  expect(entries).toHaveLength(1);
  expect(entries[0]).toContain(`${comments.length} new comments`);
  // The post did not match: the thread's link is built from its id.
  expect(mail.text).toContain('Thread: https://www.reddit.com/comments/n49rw/');
  // The two best snippets, each with its link; not all of them.
  expect(mail.html.split('class="snippet"').length - 1).toBe(2);

  expect(callsOf(monitor.id)).toHaveLength(1);
  const [body] = callsOf(monitor.id);
  expect(body.version).toBe(2);
  expect(body.matches).toHaveLength(stored.length);
  expect(body.entries).toHaveLength(1);
  expect(body.entries[0]).toMatchObject({
    thread: {
      source: 'reddit',
      id: 't3_n49rw',
      comments: comments.length,
      count: stored.length,
    },
    alsoOn: [],
  });
  expect(body.entries[0].matchIds).toHaveLength(stored.length);
  expect(body.entries[0].best).toHaveLength(2);
});

test('a Hacker News story and its replies, and a Lobsters story with its comments, are one entry each', async () => {
  const { user, monitor } = await monitorWithWebhook('chile OR uyghurs OR press OR ranking');
  // The story first, then its replies: each reply learns its thread from the stored parent.
  const chain = [21500569, 21500829, 21500985, 21501055].map((id) =>
    normaliseHackerNewsItem(hnItems.get(id)),
  );
  await h.publishItems(itemsOf(chain));
  await h.publishItems(
    itemsOf(normaliseLobstersResponse(readJson('lobsters-story-tdfoqh-2022-07-22.json'))),
  );
  const stored = await storedMatches(monitor.id);
  const hn = stored.filter((match) => match.threadId === '21500569');
  const lobsters = stored.filter((match) => match.threadId === 'tdfoqh');
  expect(hn.length).toBeGreaterThanOrEqual(3);
  expect(lobsters.length).toBeGreaterThanOrEqual(3);
  expect(hn.length + lobsters.length).toBe(stored.length);

  await deliver();
  const mail = await sink().waitForMail(user.email);
  const entries = entryLines(mail);
  expect(entries).toHaveLength(2);
  expect(entries[0]).toContain(
    `‘It’s Mutilation’: The Police in *Chile* Are Blinding Protesters and ${hn.length - 1} new comments`,
  );
  expect(mail.text).toContain('Thread: https://news.ycombinator.com/item?id=21500569');
  expect(mail.text).toContain('Thread: https://lobste.rs/s/tdfoqh');
  expect(callsOf(monitor.id)).toHaveLength(1);
  const [body] = callsOf(monitor.id);
  expect(body.entries.map((entry: { thread: { id: string } }) => entry.thread.id)).toEqual([
    '21500569',
    'tdfoqh',
  ]);
});

test('the same link from two sites is one entry naming both', async () => {
  const { user, monitor } = await monitorWithWebhook('chile');
  const story = itemsOf([normaliseHackerNewsItem(hnItems.get(21500569))]);
  // Made by this test (no recorded Reddit post links this page): the recorded story's link as a
  // Reddit post would carry it, with `www.` dropped, a tracking parameter and a trailing slash.
  const reddit: NormalisedItem = {
    source: 'reddit',
    externalId: 't3_calmtest1',
    kind: 'post',
    title: 'Police in Chile are blinding protesters (video)',
    body: '',
    url: 'http://nytimes.com/video/world/americas/100000006795557/chile-protesters-shot-eye.html/?utm_source=reddit&fbclid=abc',
    permalink: 'https://www.reddit.com/r/worldnews/comments/calmtest1/police_in_chile/',
    author: 'someone',
    community: 'worldnews',
    parentExternalId: null,
    threadTitle: null,
    createdAt: '2019-11-08T10:00:00.000Z',
  };
  await h.publishItems(story.map((item) => ({ ...item, externalId: `${item.externalId}-link` })));
  await h.publishItems([reddit]);
  expect(await storedMatches(monitor.id)).toHaveLength(2);

  await deliver();
  const mail = await sink().waitForMail(user.email);
  expect(entryLines(mail)).toHaveLength(1);
  expect(mail.text).toContain('Also on Reddit (r/worldnews)');
  expect(mail.text).toContain(reddit.permalink);
  expect(mail.html).toContain('Also on <a href="https://www.reddit.com/r/worldnews/comments/');
  const [body] = callsOf(monitor.id);
  expect(body.entries).toHaveLength(1);
  expect(body.entries[0].alsoOn).toEqual([
    { source: 'reddit', community: 'worldnews', permalink: reddit.permalink, count: 1 },
  ]);
});
