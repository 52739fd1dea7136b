import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { deliveryOutbox } from '../../src/db/schema/delivery.ts';
import { users } from '../../src/db/schema/users.ts';
import { pruneOutbox } from '../../src/delivery/prune-outbox.ts';
import { outboxMessageId } from '../../src/delivery/send-email.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';
import type { ReceivedMail } from '../support/smtp-sink.ts';

let h: DeliveryHarness;
beforeAll(async () => {
  h = await startDeliveryHarness({ env: { EMAIL_DAILY_CAP: '150' } });
});
afterAll(async () => {
  await h.close();
});

const sink = () => {
  const smtp = h.app.smtp;
  if (!smtp) throw new Error('no SMTP sink');
  return smtp;
};
const header = (mail: ReceivedMail, name: string) =>
  mail.headers.find((entry) => entry.key === name.toLowerCase())?.value;
const SECOND = 1000;

test('instant: ten matches within five seconds make one email, a minute after the first', async () => {
  h.clock.set(Date.parse('2026-06-10T10:00:00Z'));
  const user = await h.addUser();
  const monitor = await h.addMonitor(user.id, 'pglite');
  for (let i = 0; i < 10; i++) {
    expect(await h.publish([`PGlite release ${i} is out`])).toBe(1);
    await h.pass();
    h.clock.advance(500);
  }
  expect(sink().pending(user.email)).toHaveLength(0);
  h.clock.set(Date.parse('2026-06-10T10:00:59Z'));
  await h.pass();
  expect(sink().pending(user.email)).toHaveLength(0);
  h.clock.set(Date.parse('2026-06-10T10:01:00Z'));
  await h.pass();
  const mail = await sink().waitForMail(user.email);
  expect(mail.subject).toBe('10 new mentions of “pglite”');
  for (let i = 0; i < 10; i++) {
    // A hit in the title is marked there; a post of a title alone has no snippet repeating it.
    expect(mail.text).toContain(`* *PGlite* release ${i} is out\n  Hacker News · pg · `);
    expect(mail.html).toContain(`<mark>PGlite</mark> release ${i} is out`);
  }
  // Each match and the group link to the Alerts page filtered to this monitor.
  const filtered = `${h.app.config.publicUrl}/dashboard/alerts?monitor=${monitor.id}`;
  expect(mail.html.split(`href="${filtered}"`).length - 1).toBe(11);
  expect(mail.text).toContain(`All its matches: ${filtered}`);
  // Nothing more to send: the matches are covered once.
  h.clock.advance(120 * SECOND);
  await h.pass();
  expect(sink().pending(user.email)).toHaveLength(0);
});

test('the email carries List-Unsubscribe (https on PUBLIC_URL and mailto), one-click, and a Message-ID from its outbox row', async () => {
  const user = await h.addUser();
  await h.addMonitor(user.id, 'duckdb');
  await h.publish(['DuckDB 2.0']);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const mail = await sink().waitForMail(user.email);
  const listUnsubscribe = header(mail, 'List-Unsubscribe') ?? '';
  const [web, mailto] = listUnsubscribe.split(',').map((part) => part.trim());
  expect(web).toMatch(
    new RegExp(
      `^<${h.app.config.publicUrl}/api/user/unsubscribe/one-click\\?unsubscribeToken=[A-Za-z0-9_.-]+>$`,
    ),
  );
  expect(mailto).toMatch(
    /^<mailto:alerts@earshot\.local\?subject=unsubscribe&body=[A-Za-z0-9_.-]+>$/,
  );
  expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const [row] = await h.db.select().from(deliveryOutbox).where(eq(deliveryOutbox.userId, user.id));
  expect(row?.status).toBe('sent');
  expect(header(mail, 'Message-ID')).toBe(outboxMessageId(row as never, h.app.config.publicUrl));
  // The body has a visible unsubscribe link to the public page.
  expect(mail.text).toMatch(new RegExp(`${h.app.config.publicUrl}/unsubscribe\\?token=`));
  expect(mail.html).toContain(`${h.app.config.publicUrl}/unsubscribe?token=`);
});

async function receivedAlert(query: string) {
  const user = await h.addUser();
  await h.addMonitor(user.id, query);
  await h.publish([`${query} news`]);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  return { user, mail: await sink().waitForMail(user.email) };
}

async function alertsOf(userId: string) {
  const [row] = await h.db.select().from(users).where(eq(users.id, userId));
  return row?.emailAlerts;
}

test('fetching the List-Unsubscribe link (GET, HEAD) changes nothing: a GET shows the confirming page', async () => {
  // Mail scanners and link previews fetch the URLs of a message; only the RFC 8058 POST acts.
  const { user, mail } = await receivedAlert('sqlite');
  const link = /<(http[^>]+)>/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1] ?? '';
  const token = new URL(link).searchParams.get('unsubscribeToken') ?? '';
  expect(token).not.toBe('');
  const head = await fetch(link, { method: 'HEAD', redirect: 'manual' });
  expect(head.status).toBeLessThan(400);
  const get = await fetch(link, { redirect: 'manual' });
  expect(get.status).toBe(303);
  const page = new URL(get.headers.get('location') ?? '', link);
  expect(`${page.origin}${page.pathname}`).toBe(`${h.app.config.publicUrl}/unsubscribe`);
  expect(page.searchParams.get('token')).toBe(token);
  expect(await alertsOf(user.id)).toBe('instant');
});

test('HEAD of the page’s API call changes nothing; its GET turns alerts off, again and again', async () => {
  const { user, mail } = await receivedAlert('duckling');
  const link = /<(http[^>]+)>/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1] ?? '';
  const token = new URL(link).searchParams.get('unsubscribeToken') ?? '';
  const api = `${h.app.url}/api/user/unsubscribe?unsubscribeToken=${encodeURIComponent(token)}`;
  expect((await fetch(api, { method: 'HEAD' })).status).toBe(200);
  expect(await alertsOf(user.id)).toBe('instant');
  for (let i = 0; i < 2; i++) {
    const response = await fetch(api);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ unsubscribed: true });
  }
  expect(await alertsOf(user.id)).toBe('off');
  // Off: new matches make no email, and none is queued later.
  await h.publish(['duckling again']);
  await h.pass();
  h.clock.advance(3600 * SECOND);
  await h.pass();
  expect(sink().pending(user.email)).toHaveLength(0);
});

test('the one-click POST of RFC 8058 turns alerts off', async () => {
  const { user, mail } = await receivedAlert('postgres');
  const link = /<(http[^>]+)>/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1] ?? '';
  const response = await fetch(link, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'List-Unsubscribe=One-Click',
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ unsubscribed: true });
  expect(await alertsOf(user.id)).toBe('off');
});

test('every bad token is refused with a 400 JSON error, and nothing changes', async () => {
  const { user, mail } = await receivedAlert('mysql');
  const link = /<(http[^>]+)>/.exec(header(mail, 'List-Unsubscribe') ?? '')?.[1] ?? '';
  const token = new URL(link).searchParams.get('unsubscribeToken') ?? '';
  expect(token).not.toBe('');
  const [idPart, macPart] = token.split('.');
  const flip = (value: string) => (value[0] === 'A' ? 'B' : 'A') + value.slice(1);
  const bad = [
    null,
    '',
    '   ',
    'not-a-token',
    `${token}x`,
    token.slice(0, -1),
    `${flip(idPart ?? '')}.${macPart}`,
    `${idPart}.${flip(macPart ?? '')}`,
    // Signed with another key: the shape is right, the signature is not ours.
    `${idPart}.${'A'.repeat(43)}`,
    '<script>alert(1)</script>',
  ];
  for (const [path, method] of [
    ['/api/user/unsubscribe', 'GET'],
    ['/api/user/unsubscribe', 'POST'],
    ['/api/user/unsubscribe/one-click', 'POST'],
  ] as const) {
    for (const value of bad) {
      const base = `${h.app.url}${path}`;
      const url = value === null ? base : `${base}?unsubscribeToken=${encodeURIComponent(value)}`;
      const response = await fetch(url, {
        method,
        ...(method === 'POST'
          ? {
              headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
              body: 'List-Unsubscribe=One-Click',
            }
          : {}),
      });
      expect(response.status, `${method} ${value}`).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('VALIDATION_FAILED');
      expect(body.error.message).toMatch(/unsubscribe link/);
    }
  }
  expect(await alertsOf(user.id)).toBe('instant');
});

test('a muted monitor sends nothing; the others still do', async () => {
  const user = await h.addUser();
  await h.addMonitor(user.id, 'kafka', { emailMuted: true });
  await h.addMonitor(user.id, 'redis', { name: 'Redis watch' });
  await h.publish(['kafka streams', 'redis 8', 'kafka and redis']);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const mail = await sink().waitForMail(user.email);
  expect(mail.subject).toBe('2 new mentions of “Redis watch”');
  expect(mail.text).not.toContain('kafka streams');
  expect(sink().pending(user.email)).toHaveLength(0);
});

test('at most 50 matches are listed in one email, then "and N more"', async () => {
  const user = await h.addUser();
  await h.addMonitor(user.id, 'zig');
  const titles = Array.from({ length: 120 }, (_, i) => `Zig tip number ${i + 1}`);
  expect(await h.publish(titles)).toBe(120);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const mail = await sink().waitForMail(user.email);
  expect(mail.subject).toBe('120 new mentions of “zig”');
  expect(mail.text.match(/^\* \*Zig\* tip number/gm)).toHaveLength(50);
  expect(mail.html.match(/class="match"/g)).toHaveLength(50);
  expect(mail.text).toContain('…and 70 more');
  expect(mail.html).toContain('…and 70 more in your dashboard');
  expect(sink().pending(user.email)).toHaveLength(0);
});

test('the daily cap holds the rest for the next day’s first email, with the count: none is lost', async () => {
  // EMAIL_DAILY_CAP is 150 in this file.
  h.clock.set(Date.parse('2026-06-11T09:00:00Z'));
  const user = await h.addUser({ timezone: 'Europe/Paris' });
  await h.addMonitor(user.id, 'llama');
  await h.publish(Array.from({ length: 100 }, (_, i) => `llama ${i}`));
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const first = await sink().waitForMail(user.email);
  expect(first.subject).toBe('100 new mentions of “llama”');
  expect(first.text).not.toContain('limit');

  await h.publish(Array.from({ length: 80 }, (_, i) => `llama again ${i}`));
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const second = await sink().waitForMail(user.email);
  expect(second.subject).toBe('50 new mentions of “llama”');
  expect(second.text).toContain(
    "You reached today's limit of 150 matches by email. 30 more are held for tomorrow's first email; none is lost",
  );
  expect(second.html).toContain('class="notice"');

  // Over the cap for the rest of the local day: nothing more goes out, and nothing is let go.
  await h.publish(['llama late']);
  for (let i = 0; i < 3; i++) {
    await h.pass();
    h.clock.advance(60 * SECOND);
  }
  await h.pass();
  expect(sink().pending(user.email)).toHaveLength(0);

  // After local midnight (22:00 UTC in Paris in June): the 30 held and the late one, then the new.
  h.clock.set(Date.parse('2026-06-11T22:00:00Z'));
  await h.publish(['llama tomorrow']);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const third = await sink().waitForMail(user.email);
  expect(third.subject).toBe('32 new mentions of “llama”');
  expect(third.text).toContain(
    "This email carries 30 matches held over from an earlier day's limit.",
  );
  expect(third.text).toContain('*llama* again 79');
  expect(third.text).toContain('*llama* late');
  expect(third.text).toContain('*llama* tomorrow');
  expect(third.text).not.toContain('limit of 150');
});

test('post text is escaped in the HTML; no remote images', async () => {
  const user = await h.addUser();
  await h.addMonitor(user.id, 'xss');
  await h.publish(['xss <img src=https://evil.example/x.png onerror=alert(1)> & "quotes"']);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  const mail = await sink().waitForMail(user.email);
  expect(mail.html).not.toContain('<img');
  expect(mail.html).toContain(
    '&lt;img src=https://evil.example/x.png onerror=alert(1)&gt; &amp; &quot;quotes&quot;',
  );
  // No tag that loads anything remote: no images, scripts, stylesheets or frames.
  expect(mail.html).not.toMatch(/<(img|script|link|iframe)\b/i);
});

test('"send me a test email" queues one through the outbox, at most one a minute', async () => {
  h.clock.set(Date.now());
  const person = await h.app.signedInUser();
  const AccessToken = person.token;
  const first = await h.app.api('/api/user/test-email', { token: AccessToken, method: 'POST' });
  expect(first.status).toBe(202);
  expect(await first.json()).toEqual({ queued: true, to: person.email });
  const again = await h.app.api('/api/user/test-email', { token: AccessToken, method: 'POST' });
  expect(again.status).toBe(429);
  expect(Number(again.headers.get('Retry-After'))).toBeGreaterThan(0);
  expect(((await again.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  expect((await h.app.api('/api/user/test-email', { method: 'POST' })).status).toBe(401);
  // The API keeps the system's time; delivery catches up with it.
  h.clock.set(Date.now() + 1000);
  await h.pass();
  const mail = await sink().waitForMail(person.email);
  expect(mail.subject).toBe('Earshot test email: this is how your alerts look');
  expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  // The sample went through the matcher: the hit is the word the sample monitor names.
  expect(mail.html).toContain('looks like: <mark>PGlite</mark> runs Postgres in WebAssembly.');
  // …in the sample's title and in its text.
  expect(mail.html).toContain('>Show HN: Postgres in the browser with <mark>PGlite</mark></a>');
  expect(mail.html.match(/<mark>[^<]*<\/mark>/g)).toEqual([
    '<mark>PGlite</mark>',
    '<mark>PGlite</mark>',
  ]);
  expect(mail.text).toContain('looks like: *PGlite* runs Postgres in WebAssembly.');
  expect(mail.text).not.toContain('Postg*');
  expect(sink().pending(person.email)).toHaveLength(0);
});

test('finished outbox rows are pruned after the retention', async () => {
  const user = await h.addUser();
  await h.addMonitor(user.id, 'prune');
  await h.publish(['prune me']);
  await h.pass();
  h.clock.advance(60 * SECOND);
  await h.pass();
  await sink().waitForMail(user.email);
  const rowsOf = () => h.db.select().from(deliveryOutbox).where(eq(deliveryOutbox.userId, user.id));
  expect((await rowsOf()).map((row) => row.status)).toEqual(['sent']);
  h.clock.advance(29 * 86_400 * SECOND);
  await pruneOutbox(h.ctx);
  expect(await rowsOf()).toHaveLength(1);
  h.clock.advance(2 * 86_400 * SECOND);
  await pruneOutbox(h.ctx);
  expect(await rowsOf()).toHaveLength(0);
});
