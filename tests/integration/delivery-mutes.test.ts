import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { getMonitor } from '../../src/core/monitors/get-monitor.ts';
import { setMonitorWebhook } from '../../src/core/webhooks/set-monitor-webhook.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { monitors, monitorThreadMutes } from '../../src/db/schema/monitors.ts';
import { createMuteTokens } from '../../src/delivery/mute-token.ts';
import { normaliseLobstersResponse } from '../../src/sources/lobsters/normalise.ts';
import type { NormalisedItem, NormaliseResult } from '../../src/sources/normalised-item.ts';
import { normaliseRedditListing } from '../../src/sources/reddit/normalise.ts';
import type { DeliveryHarness } from '../support/delivery-harness.ts';
import { startDeliverySuite } from '../support/delivery-suite.ts';
import type { ReceivedMail } from '../support/smtp-sink.ts';
import type { WebhookReceiver } from '../support/webhook-receiver.ts';

/**
 * Mute from the email (issue 25, decision 0038): the links are signed, one click, refused when
 * altered or foreign (400, nothing changed), undone on request; after "mute <author>" nothing of
 * that author reaches the email, the webhook or the feed for that monitor; after "mute this
 * thread" nothing of the thread does. On the recorded Reddit n49rw and Lobsters tdfoqh threads.
 */
const suite = startDeliverySuite();
let h: DeliveryHarness;
let receiver: WebhookReceiver;
beforeAll(() => {
  h = suite.h();
  receiver = suite.receiver();
});

const recorded = new URL('../fixtures/recorded/', import.meta.url);
const readJson = (file: string): unknown =>
  JSON.parse(readFileSync(new URL(file, recorded), 'utf8'));
const itemsOf = (results: readonly NormaliseResult[]): NormalisedItem[] =>
  results.flatMap((result) => (result.status === 'item' ? [result.item] : []));

/** The mute links of an email's plain text: label → token. */
function muteLinks(mail: ReceivedMail): Map<string, string> {
  const links = new Map<string, string>();
  for (const [, label, url] of mail.text.matchAll(/^ {2}(Mute [^:]+): (\S+)$/gm)) {
    links.set(label ?? '', new URL(url ?? '').searchParams.get('token') ?? '');
  }
  return links;
}

const mutes = (method: string, token: string) =>
  h.app.api(`/api/mutes?muteToken=${encodeURIComponent(token)}`, { method });

async function queryOf(monitorId: string) {
  const [row] = await h.db
    .select({ query: monitors.query })
    .from(monitors)
    .where(eq(monitors.id, monitorId));
  return row?.query;
}

async function deliver() {
  await h.pass();
  h.clock.advance(60_000);
  await h.pass();
}

test('“mute <author>” from the email: signed, one click, undoable; nothing more of them reaches email, webhook or feed', async () => {
  const user = await h.addUser();
  const monitor = await h.addMonitor(user.id, 'reddit');
  await setMonitorWebhook(h.ctx, {
    userId: user.id,
    monitorId: monitor.id,
    webhook: { kind: 'json', url: receiver.url },
  });
  const thread = itemsOf(normaliseRedditListing(readJson('reddit-thread-n49rw-2016-03-22.json')));
  const author = 'TheyCallMeRINO';
  const [first, ...later] = thread.filter(
    (item) => item.author === author && /reddit/i.test(item.body),
  );
  expect(later).toHaveLength(1);
  await h.publishItems([first as NormalisedItem]);
  await deliver();
  const mail = await suite.sink().waitForMail(user.email);
  const links = muteLinks(mail);
  expect([...links.keys()]).toEqual(['Mute this thread', `Mute ${author}`, 'Mute r/announcements']);
  expect(mail.html).toContain(`>Mute ${author}</a>`);
  const token = links.get(`Mute ${author}`) ?? '';

  // Reading what the link does changes nothing (mail scanners open links).
  const described = await mutes('GET', token);
  expect(described.status).toBe(200);
  expect(await described.json()).toMatchObject({
    muted: false,
    kind: 'author',
    value: author,
    exclusion: `-author:${author}`,
    monitor: { id: monitor.id, query: 'reddit' },
  });
  // Altered, foreign (another deployment's key; genuine but naming another user as the monitor's
  // owner) and unsubscribe tokens: 400, nothing changed.
  const [payload = ''] = token.split('.');
  const forged = createMuteTokens('another deployment').signMute(
    JSON.parse(Buffer.from(payload, 'base64url').toString()),
  );
  const stranger = await h.addUser();
  const otherUser = h.ctx.tokens.signMute({
    u: stranger.id,
    m: monitor.id,
    k: 'author',
    s: 'reddit',
    v: 'someone',
  });
  for (const bad of [
    `${token.slice(0, -2)}${token.endsWith('AA') ? 'BA' : 'AA'}`,
    `${payload.slice(0, -4)}AAAA.${token.split('.')[1]}`,
    forged,
    otherUser,
    h.ctx.tokens.sign(user.id),
    '',
  ]) {
    const response = await mutes('POST', bad);
    expect(response.status, bad).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'VALIDATION_FAILED',
    );
  }
  expect(await queryOf(monitor.id)).toBe('reddit');

  // One click: a visible exclusion on the monitor; again: the same.
  for (let i = 0; i < 2; i++) {
    const muted = await mutes('POST', token);
    expect(muted.status).toBe(200);
    expect(await muted.json()).toMatchObject({
      muted: true,
      monitor: { query: `reddit -author:${author}` },
    });
  }
  expect(await queryOf(monitor.id)).toBe(`reddit -author:${author}`);

  // The rest of the thread: others' comments arrive, this author's does not, anywhere.
  receiver.calls.length = 0;
  await h.publishItems(thread.filter((item) => item !== first));
  await deliver();
  const after = await suite.sink().waitForMail(user.email);
  const stored = await h.db
    .select({ author: matches.author })
    .from(matches)
    .where(eq(matches.monitorId, monitor.id));
  expect(stored.length).toBeGreaterThan(30);
  expect(stored.filter((match) => match.author === author)).toHaveLength(1); // the one before
  expect(after.text).not.toContain(`(${author})`);
  expect(after.text).not.toContain(`Mute ${author}`);
  const called = receiver.calls.flatMap((call) => JSON.parse(call.body).matches);
  expect(called.length).toBeGreaterThan(30);
  expect(called.filter((match: { author: string }) => match.author === author)).toHaveLength(0);

  // Undo takes the exclusion out again.
  const undone = await mutes('DELETE', token);
  expect(await undone.json()).toMatchObject({ muted: false, monitor: { query: 'reddit' } });
  expect(await queryOf(monitor.id)).toBe('reddit');
});

test('“mute this thread”: listed on the monitor, its later comments make no match, undo lifts it', async () => {
  const user = await h.addUser();
  const monitor = await h.addMonitor(user.id, 'ranking OR upvotes OR discussion');
  const story = itemsOf(
    normaliseLobstersResponse(readJson('lobsters-story-tdfoqh-2022-07-22.json')),
  );
  const [post, ...comments] = story;
  await h.publishItems([post as NormalisedItem]);
  await deliver();
  const mail = await suite.sink().waitForMail(user.email);
  const token = muteLinks(mail).get('Mute this thread') ?? '';
  const muted = await (await mutes('POST', token)).json();
  expect(muted).toMatchObject({ muted: true, kind: 'thread', value: 'tdfoqh', exclusion: null });
  expect(
    await h.db
      .select({ title: monitorThreadMutes.title })
      .from(monitorThreadMutes)
      .where(eq(monitorThreadMutes.monitorId, monitor.id)),
  ).toEqual([{ title: post?.title }]);
  // Listed on the monitor, as the API and the Monitors page show it.
  const shown = await getMonitor({ db: h.db }, { userId: user.id, monitorId: monitor.id });
  expect(shown.mutedThreads).toEqual([
    { source: 'lobsters', threadId: 'tdfoqh', title: post?.title, mutedAt: expect.any(String) },
  ]);

  await h.publishItems(comments);
  const stored = await h.db
    .select({ kind: matches.kind })
    .from(matches)
    .where(eq(matches.monitorId, monitor.id));
  expect(stored).toEqual([{ kind: 'post' }]);
  await (await mutes('DELETE', token)).json();
  expect(
    await h.db
      .select()
      .from(monitorThreadMutes)
      .where(eq(monitorThreadMutes.monitorId, monitor.id)),
  ).toEqual([]);
});
