import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { ValidationError } from '../../src/core/errors.ts';
import {
  setMonitorWebhook,
  toMonitorWebhook,
} from '../../src/core/webhooks/set-monitor-webhook.ts';
import { testMonitorWebhook } from '../../src/core/webhooks/test-monitor-webhook.ts';
import { deliveryOutbox, monitorWebhooks } from '../../src/db/schema/delivery.ts';
import type { DeliveryContext } from '../../src/delivery/delivery-context.ts';
import { drainOutbox } from '../../src/delivery/drain-outbox.ts';
import { CHANNEL_SENDERS } from '../../src/delivery/start-delivery.ts';
import { matchSchema } from '../../src/shared/match.ts';
import type { WebhookKindName } from '../../src/shared/webhook.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

let h: DeliveryHarness;
let receiver: WebhookReceiver;
beforeAll(async () => {
  h = await startDeliveryHarness({
    env: {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '300',
      WEBHOOK_MAX_FAILURES: '4',
      DELIVERY_RETRY_BASE_SECONDS: '5',
      // Webhooks have a cap of their own: the email cap, far lower, must not apply to them.
      WEBHOOK_DAILY_CAP: '15',
      EMAIL_DAILY_CAP: '2',
    },
  });
});
afterAll(async () => {
  await h.close();
});
afterEach(async () => {
  await receiver?.close();
});

/** The verification recipe of docs/webhooks.md, run exactly as written there. */
function documentedVerifier(): (
  secret: string,
  header: string,
  body: string,
  now?: number,
) => boolean {
  const doc = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const code = /```js\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!code) throw new Error('docs/webhooks.md has no js block');
  return new Function('require', `${code}\nreturn verifyEarshotSignature;`)(
    createRequire(import.meta.url),
  );
}

async function monitorWithWebhook(kind: WebhookKindName, query: string, url?: string) {
  receiver = await startWebhookReceiver();
  const user = await h.addUser({ emailAlerts: 'off' });
  const monitor = await h.addMonitor(user.id, query);
  const hook = await setMonitorWebhook(h.ctx, {
    userId: user.id,
    monitorId: monitor.id,
    webhook: { kind, url: url ?? receiver.url },
  });
  return { user, monitor, hook };
}

/** Runs passes while moving the clock `seconds` at a time, `times` times. */
async function run(seconds: number, times = 1) {
  for (let i = 0; i < times; i++) {
    await h.pass();
    h.clock.advance(seconds * 1000);
  }
  await h.pass();
}

test('Slack: one incoming-webhook payload per batch, a section per match', async () => {
  await monitorWithWebhook('slack', 'pglite');
  await h.publish(['PGlite 1.0 <is> out', 'Why PGlite & friends', 'PGlite on the edge']);
  await run(60);
  expect(receiver.calls).toHaveLength(1);
  const body = JSON.parse(receiver.calls[0]?.body ?? '{}');
  expect(body.text).toBe('3 new mentions of “pglite”');
  expect(body.unfurl_links).toBe(false);
  expect(body.blocks).toHaveLength(5);
  expect(body.blocks[1]).toEqual({
    type: 'section',
    text: {
      type: 'mrkdwn',
      text: expect.stringMatching(
        // A post of a title alone: no snippet repeating it, and where the terms hit.
        // Then the signed one-click rating links (docs/product.md, "Relevance").
        /^<https:\/\/news\.ycombinator\.com\/item\?id=[^|]+\|PGlite 1\.0 &lt;is&gt; out>\n_Hacker News · pg · hit in the title_\n<http[^|>]+\/feedback\?token=[^|>]+\|Relevant> · <http[^|>]+\/feedback\?token=[^|>]+\|Not relevant>$/,
      ),
    },
  });
  expect(body.blocks[2].text.text).toContain('|Why PGlite &amp; friends>');
  expect(body.blocks[4].type).toBe('context');
  expect(receiver.calls[0]?.headers['content-type']).toBe('application/json');
});

test('Discord: at most ten embeds a call, mentions never ping', async () => {
  await monitorWithWebhook('discord', 'tauri');
  await h.publish(
    Array.from({ length: 12 }, (_, i) => `Tauri ${i} @everyone`),
    { body: 'Ship it with Tauri @everyone' },
  );
  await run(60);
  expect(receiver.calls).toHaveLength(2);
  const [first, second] = receiver.calls.map((call) => JSON.parse(call.body));
  expect(first.content).toBe('10 new mentions of “tauri”');
  expect(second.content).toBe('2 new mentions of “tauri”');
  expect(first.allowed_mentions).toEqual({ parse: [] });
  expect(first.embeds).toHaveLength(10);
  expect(second.embeds).toHaveLength(2);
  expect(first.embeds[0]).toEqual({
    title: 'Tauri 0 @everyone',
    url: expect.stringMatching(/^https:\/\/news\.ycombinator\.com\/item\?id=/),
    description: 'Ship it with **Tauri** @\u200beveryone',
    fields: [
      {
        name: 'Relevant?',
        value: expect.stringMatching(
          /^\[Relevant\]\(http\S+\/feedback\?token=\S+\) · \[Not relevant\]\(http\S+\/feedback\?token=\S+\)$/,
        ),
        inline: false,
      },
    ],
    footer: { text: 'Hacker News · pg · hit in the title and body' },
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
});

test('JSON: { monitor, matches } as the API returns them, signed as docs/webhooks.md verifies', async () => {
  const { monitor, hook } = await monitorWithWebhook('json', 'wasm');
  await h.publish(['wasm everywhere', 'wasm GC lands']);
  await run(60);
  expect(receiver.calls).toHaveLength(1);
  const call = receiver.calls[0];
  const body = JSON.parse(call?.body ?? '{}');
  expect(body.monitor).toEqual({ id: monitor.id, name: '', query: 'wasm' });
  expect(body.matches).toHaveLength(2);
  for (const match of body.matches) expect(matchSchema.parse(match)).toEqual(match);
  expect(body.matches.map((m: { title: string }) => m.title)).toEqual([
    'wasm everywhere',
    'wasm GC lands',
  ]);

  const verify = documentedVerifier();
  const header = String(call?.headers['earshot-signature']);
  expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
  const sentAt = Number(/t=(\d+)/.exec(header)?.[1]);
  expect(sentAt).toBe(Math.floor(h.ctx.clock.now().getTime() / 1000));
  const secret = hook?.secret ?? '';
  expect(secret).toMatch(/^whsec_/);
  expect(verify(secret, header, call?.body ?? '', sentAt)).toBe(true);
  expect(verify(secret, header, `${call?.body} `, sentAt)).toBe(false);
  expect(verify('whsec_wrong', header, call?.body ?? '', sentAt)).toBe(false);
  expect(verify(secret, header, call?.body ?? '', sentAt + 301)).toBe(false);
  expect(verify(secret, header.replace(/t=\d+/, `t=${sentAt + 1}`), call?.body ?? '', sentAt)).toBe(
    false,
  );
});

test('WEBHOOK_DAILY_CAP holds per webhook and day, in the owner’s time zone; the rest is held for the next day, never lost', async () => {
  h.clock.set(Date.parse('2026-06-10T10:00:00Z'));
  const { monitor } = await monitorWithWebhook('json', 'capped');
  const titles = (from: number) => Array.from({ length: 10 }, (_, i) => `capped ${from + i}`);
  const sent = () =>
    receiver.calls.flatMap((call) =>
      (JSON.parse(call.body) as { matches: { title: string }[] }).matches.map((m) => m.title),
    );
  await h.publish(titles(0));
  await run(60);
  expect(sent()).toEqual(titles(0));
  expect(JSON.parse(receiver.calls[0]?.body ?? '{}').notice).toBeUndefined();

  await h.publish(titles(10));
  await run(60);
  // 15 a day: five of the second ten, and that call says the limit is reached.
  expect(sent()).toEqual([...titles(0), ...titles(10).slice(0, 5)]);
  expect(JSON.parse(receiver.calls.at(-1)?.body ?? '{}').notice).toBe(
    "Today's limit of 15 matches is reached; 5 more are held for tomorrow's first call, none is lost.",
  );
  await h.publish(titles(20));
  await run(60);
  expect(receiver.calls).toHaveLength(2);

  // The next day (the owner's, UTC here): the held five and the ten after them fill its cap of
  // 15; the one published then waits for the day after. Nothing is let go.
  h.clock.set(Date.parse('2026-06-11T00:00:00Z'));
  await h.publish(['capped tomorrow']);
  await run(60);
  expect(sent()).toEqual([...titles(0), ...titles(10), ...titles(20)]);
  expect(JSON.parse(receiver.calls.at(-1)?.body ?? '{}').notice).toBe(
    "Carries 5 matches held over from an earlier day's limit. Today's limit of 15 matches is reached; 1 more is held for tomorrow's first call, none is lost.",
  );
  const hookState = async () => {
    const [hook] = await h.db
      .select()
      .from(monitorWebhooks)
      .where(eq(monitorWebhooks.monitorId, monitor.id));
    return [hook?.capDay, hook?.capCount, hook?.heldCount];
  };
  expect(await hookState()).toEqual(['2026-06-11', 15, 1]);
  h.clock.set(Date.parse('2026-06-12T00:00:00Z'));
  await run(60);
  expect(sent().at(-1)).toBe('capped tomorrow');
  expect(await hookState()).toEqual(['2026-06-12', 1, 0]);
});

test('retries through 500s and timeouts, then delivers once', async () => {
  const { monitor } = await monitorWithWebhook('json', 'elixir');
  receiver.script('fail', 'hang', 'fail');
  await h.publish(['elixir 2']);
  // Backoff is 5 s, 10 s, 20 s (+ up to 10%): minute steps cover each.
  await run(60, 5);
  expect(receiver.calls).toHaveLength(4);
  expect(receiver.taken()).toHaveLength(1);
  expect(new Set(receiver.calls.map((call) => call.body)).size).toBe(1);
  const [row] = await h.db
    .select()
    .from(deliveryOutbox)
    .where(eq(deliveryOutbox.monitorId, monitor.id));
  expect(row).toMatchObject({ status: 'sent', attempts: 4 });
});

test('repeated failures pause the webhook and say why; saving it again resumes it', async () => {
  const { user, monitor } = await monitorWithWebhook('slack', 'cobol');
  receiver.script('fail', 'fail', 'fail', 'fail');
  await h.publish(['cobol is back']);
  await run(60, 8);
  expect(receiver.calls).toHaveLength(4);
  const [pausedRow] = await h.db
    .select()
    .from(monitorWebhooks)
    .where(eq(monitorWebhooks.monitorId, monitor.id));
  const paused = pausedRow ? toMonitorWebhook(pausedRow) : null;
  expect(paused?.paused).toBe(true);
  expect(paused?.pausedReason).toMatch(/^Paused after 4 failed calls in a row \(last: HTTP 500\)/);
  // The owner is told by email too (alerts are off for this user: this is not an alert).
  const told = await h.app.smtp?.waitForMail(user.email);
  expect(told?.subject).toBe('Your webhook for “cobol” is paused');
  expect(told?.text).toContain('Paused after 4 failed calls in a row');
  // Paused: new matches are not sent, and not kept for later either.
  await h.publish(['cobol again']);
  await run(60, 2);
  expect(receiver.calls).toHaveLength(4);

  const resumed = await setMonitorWebhook(h.ctx, {
    userId: user.id,
    monitorId: monitor.id,
    webhook: { kind: 'slack', url: receiver.url },
  });
  expect(resumed?.paused).toBe(false);
  await h.publish(['cobol forever']);
  await run(60, 2);
  expect(receiver.taken()).toHaveLength(1);
  expect(JSON.parse(receiver.taken()[0]?.body ?? '{}').text).toBe('1 new mention of “cobol”');
});

test('private, loopback and link-local addresses are refused when saved and when sending', async () => {
  receiver = await startWebhookReceiver();
  const strict: DeliveryContext = {
    ...h.ctx,
    config: { ...h.ctx.config, WEBHOOK_ALLOW_PRIVATE: false },
  };
  const user = await h.addUser({ emailAlerts: 'off' });
  const monitor = await h.addMonitor(user.id, 'ssrf');
  for (const url of [
    receiver.url, // http://
    `https://127.0.0.1:${receiver.port}/hook`,
    'https://[::1]/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.1/hook',
    'https://[::ffff:127.0.0.1]/hook',
  ]) {
    await expect(
      setMonitorWebhook(strict, {
        userId: user.id,
        monitorId: monitor.id,
        webhook: { kind: 'json', url },
      }),
      url,
    ).rejects.toBeInstanceOf(ValidationError);
  }
  // A name is resolved at send time: localhost resolves to loopback, so the call is refused then.
  await setMonitorWebhook(strict, {
    userId: user.id,
    monitorId: monitor.id,
    webhook: { kind: 'json', url: `https://localhost:${receiver.port}/hook` },
  });
  await h.publish(['ssrf attempt']);
  await h.pass();
  h.clock.advance(60_000);
  const { decideWebhooks } = await import('../../src/delivery/webhooks/decide-webhooks.ts');
  await decideWebhooks(strict);
  await drainOutbox(strict, CHANNEL_SENDERS);
  const [row] = await h.db
    .select()
    .from(deliveryOutbox)
    .where(eq(deliveryOutbox.monitorId, monitor.id));
  expect(row?.status).toBe('failed');
  // The error is shown to the owner (paused reason, test result): it says the address is not
  // allowed, never what the name resolved to inside the server's network.
  expect(row?.lastError).toBe('this address is not allowed');
  const tested = await testMonitorWebhook(strict, { userId: user.id, monitorId: monitor.id });
  expect(tested).toEqual({
    delivered: false,
    status: null,
    error: 'The webhook could not be reached: this address is not allowed.',
  });
  expect(receiver.calls).toHaveLength(0);
});

test('POST /api/monitors/:id/webhook/test sends a sample, for the owner only', async () => {
  receiver = await startWebhookReceiver();
  const owner = await h.app.signedInUser();
  const AccessToken = owner.token;
  const monitor = await h.addMonitor(owner.sub, 'earshot');
  const path = `/api/monitors/${monitor?.id}/webhook/test`;
  // No webhook yet.
  expect((await h.app.api(path, { token: AccessToken, method: 'POST' })).status).toBe(404);
  await setMonitorWebhook(h.ctx, {
    userId: owner.sub,
    monitorId: monitor?.id ?? '',
    webhook: { kind: 'json', url: receiver.url },
  });
  const ok = await h.app.api(path, { token: AccessToken, method: 'POST' });
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ delivered: true, status: 200, error: null });
  expect(receiver.calls).toHaveLength(1);
  const [sample] = matchSchema.array().parse(JSON.parse(receiver.calls[0]?.body ?? '{}').matches);
  expect(sample?.title).toMatch(/^Earshot test/);
  // Made by the matcher with the monitor's query: the hit is its word.
  expect(sample?.highlights.map(([start, end]) => sample.snippet.slice(start, end))).toEqual([
    'earshot',
  ]);

  receiver.script('fail');
  const failed = await h.app.api(path, { token: AccessToken, method: 'POST' });
  expect(await failed.json()).toEqual({
    delivered: false,
    status: 500,
    error: 'The webhook answered HTTP 500.',
  });

  // Someone else's monitor, or no such monitor: 404 alike; no token: 401.
  const strangerToken = (await h.app.signedInUser()).token;
  expect((await h.app.api(path, { token: strangerToken, method: 'POST' })).status).toBe(404);
  expect(
    (
      await h.app.api('/api/monitors/not-a-uuid/webhook/test', {
        token: AccessToken,
        method: 'POST',
      })
    ).status,
  ).toBe(404);
  expect((await h.app.api(path, { method: 'POST' })).status).toBe(401);
  expect(receiver.calls).toHaveLength(2);
});

test('PATCH /api/monitors/:id sets, shows, refuses and removes the webhook, for the owner only', async () => {
  const owner = await h.app.signedInUser();
  const monitor = await h.addMonitor(owner.sub, 'patchme');
  const path = `/api/monitors/${monitor.id}`;
  const patch = (body: unknown, token = owner.token) =>
    h.app.api(path, { token, method: 'PATCH', body });

  const set = await patch({ webhook: { kind: 'json', url: 'https://hooks.example.com/earshot' } });
  expect(set.status).toBe(200);
  const saved = (await set.json()) as { webhook: { secret: string } };
  expect(saved.webhook).toEqual({
    kind: 'json',
    url: 'https://hooks.example.com/earshot',
    secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{32}$/),
    paused: false,
    pausedReason: null,
  });
  // The list shows it; a second save keeps the secret (receivers keep verifying).
  const listed = (await (await h.app.api('/api/monitors', { token: owner.token })).json()) as {
    id: string;
    webhook: unknown;
  }[];
  expect(listed.find((m) => m.id === monitor.id)?.webhook).toEqual(saved.webhook);
  const again = await patch({
    webhook: { kind: 'slack', url: 'https://hooks.slack.com/x' },
    name: 'Renamed',
  });
  const changed = (await again.json()) as {
    name: string;
    webhook: { kind: string; secret: string };
  };
  expect(changed.name).toBe('Renamed');
  expect(changed.webhook.kind).toBe('slack');
  expect(changed.webhook.secret).toBe(saved.webhook.secret);

  for (const [webhook, field] of [
    [{ kind: 'json', url: 'not a url' }, 'webhook.url'],
    [{ kind: 'json', url: 'ftp://example.com/' }, 'webhook.url'],
    [{ kind: 'teams', url: 'https://example.com/' }, 'webhook.kind'],
    [{ kind: 'json' }, 'webhook.url'],
  ] as const) {
    const refused = await patch({ webhook });
    expect(refused.status, JSON.stringify(webhook)).toBe(400);
    const body = (await refused.json()) as { error: { code: string; details: { path: string }[] } };
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.map((d) => d.path)).toContain(field);
  }
  // Nothing was changed by the refused ones.
  const kept = (await (await h.app.api(path, { token: owner.token })).json()) as {
    webhook: { kind: string };
  };
  expect(kept.webhook.kind).toBe('slack');

  const stranger = await h.app.signedInUser();
  expect((await patch({ webhook: null }, stranger.token)).status).toBe(404);
  const removed = await patch({ webhook: null });
  expect(((await removed.json()) as { webhook: unknown }).webhook).toBeNull();
});
