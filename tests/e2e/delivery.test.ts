import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { renderAlertEmail } from '../../src/delivery/alert-email.ts';
import type { Match } from '../../src/shared/match.ts';
import { browserAvailability, openPage, TAKE_SCREENSHOTS } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import type { E2eUser } from '../support/e2e-app.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

const availability = browserAvailability();

describe.runIf(availability.run)('email alerts in Chromium', () => {
  // The webhook receiver of these tests listens on loopback over http.
  const suite = useBrowserSuite(availability.run ? availability.path : '', {
    WEBHOOK_ALLOW_PRIVATE: 'true',
  });

  async function settingsPage(user: E2eUser, timezoneId?: string) {
    const context = await suite.newContext({
      viewport: { width: 1280, height: 900 },
      ...(timezoneId ? { timezoneId } : {}),
    });
    await suite.e2e.seedSession(context, user);
    const opened = await openPage(context);
    await opened.page.goto('/dashboard/settings');
    await opened.page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    return opened;
  }

  async function alertsMode(user: E2eUser): Promise<string> {
    const { AccessToken } = await suite.e2e.signIn(user);
    const response = await fetch(`${suite.e2e.app.url}/api/user`, {
      headers: { Authorization: AccessToken },
    });
    return ((await response.json()) as { emailAlerts: string }).emailAlerts;
  }

  test('the time zone is filled in from the browser; the choices are saved and shown after a reload', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page, problems } = await settingsPage(user, 'Asia/Tokyo');
    const zone = page.getByLabel('Time zone', { exact: true });
    expect(await zone.inputValue()).toBe('Asia/Tokyo');
    await page.getByText('Filled in from this device').waitFor();
    await page.getByLabel('Hourly digest').check();
    await page.getByRole('button', { name: 'Save email alerts' }).click();
    await page.getByText('Email alerts saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    expect(await page.getByLabel('Hourly digest').isChecked()).toBe(true);
    expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).toBe('Asia/Tokyo');
    expect(await page.getByText('Filled in from this device').count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  test('the unsubscribe link of a received email turns alerts off and says so', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page, problems } = await settingsPage(user);
    await page.getByRole('button', { name: 'Send me a test email' }).click();
    await page.getByText(`Test email sent to ${user.email}`).waitFor();
    const mail = await suite.e2e.smtp.waitForMail(user.email, 15_000);
    const link = /(http:\/\/\S+\/unsubscribe\?token=[A-Za-z0-9_.%-]+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    expect(await alertsMode(user)).toBe('instant');

    // Opened from the email: no session in this browser.
    // The damaged link below answers 400, which the browser logs: that one error is expected.
    const visitor = await openPage(await suite.newContext(), [/status of 400/]);
    // Opening the link (as a mail scanner would) changes nothing: the page asks first.
    await visitor.page.goto(link ?? '');
    await visitor.page.getByRole('heading', { name: 'Stop alert emails?' }).waitFor();
    await visitor.page.waitForLoadState('networkidle');
    expect(await alertsMode(user)).toBe('instant');
    // The token leaves the address bar (and so analytics and history), and a reload keeps it.
    expect(visitor.page.url()).not.toContain('token=');
    await visitor.page.reload();
    await visitor.page.getByRole('heading', { name: 'Stop alert emails?' }).waitFor();
    // So does the List-Unsubscribe link opened in a browser: it shows the same page.
    const listUnsubscribe =
      mail.headers.find((entry) => entry.key === 'list-unsubscribe')?.value ?? '';
    const oneClick = /<(http[^>]+)>/.exec(listUnsubscribe)?.[1] ?? '';
    expect(oneClick).toMatch(/\/api\/user\/unsubscribe\/one-click\?/);
    await visitor.page.goto(oneClick);
    await visitor.page.getByRole('heading', { name: 'Stop alert emails?' }).waitFor();
    await visitor.page.waitForLoadState('networkidle');
    expect(await alertsMode(user)).toBe('instant');
    await visitor.page.getByRole('button', { name: 'Unsubscribe' }).click();
    await visitor.page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    await visitor.page.getByRole('link', { name: /Turn alerts back on/ }).waitFor();
    expect(await alertsMode(user)).toBe('off');

    // The way back: Settings shows Off, and alerts can be turned on again.
    await page.reload();
    await page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    expect(await page.getByLabel('Off').isChecked()).toBe(true);

    // A damaged link changes nothing and says so.
    await visitor.page.goto(`${(link ?? '').slice(0, -3)}xyz`);
    await visitor.page.getByRole('button', { name: 'Unsubscribe' }).click();
    await visitor.page
      .getByRole('heading', { name: 'This unsubscribe link does not work' })
      .waitFor();
    await visitor.page.goto('/unsubscribe');
    await visitor.page
      .getByRole('heading', { name: 'This unsubscribe link is incomplete' })
      .waitFor();
    expect(problems.errors).toEqual([]);
    expect(visitor.problems.errors).toEqual([]);
  });

  test('a monitor’s webhook is set, tested and shown again after a reload', async () => {
    const user = await suite.e2e.createConfirmedUser();
    // The session first: it makes the user's record, which the monitor needs.
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    await suite.e2e.seedSession(context, user);
    const { AccessToken } = await suite.e2e.signIn(user);
    const created = await fetch(`${suite.e2e.app.url}/api/monitors`, {
      method: 'POST',
      headers: { Authorization: AccessToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'pglite' }),
    });
    expect(created.status).toBe(201);
    const receiver = await startWebhookReceiver();
    try {
      const { page, problems } = await openPage(context);
      await page.goto('/dashboard/monitors');
      await page.getByRole('button', { name: 'Edit pglite' }).click();
      const hook = page.getByRole('form', { name: 'Webhook' });
      await hook.getByLabel('Send to').selectOption('json');
      await hook.getByLabel('Webhook URL').fill(receiver.url);
      await hook.getByRole('button', { name: 'Save webhook' }).click();
      await page.getByText('Webhook saved.').waitFor();
      const secret = (await hook.getByTestId('webhook-secret').textContent()) ?? '';
      expect(secret).toMatch(/^whsec_/);

      await hook.getByRole('button', { name: 'Send a test' }).click();
      await page.getByText('Test sent: the webhook took it.').waitFor();
      expect(receiver.calls).toHaveLength(1);
      expect(String(receiver.calls[0]?.headers['earshot-signature'])).toMatch(
        /^t=\d+,v1=[0-9a-f]{64}$/,
      );

      receiver.script('fail');
      await hook.getByRole('button', { name: 'Send a test' }).click();
      await hook.getByText('The webhook answered HTTP 500.').waitFor();

      await page.reload();
      await page.getByRole('button', { name: 'Edit pglite' }).click();
      const again = page.getByRole('form', { name: 'Webhook' });
      expect(await again.getByLabel('Webhook URL').inputValue()).toBe(receiver.url);
      expect(await again.getByLabel('Send to').inputValue()).toBe('json');
      expect(problems.errors).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  test('the alert email renders in light and dark, on a desktop and a phone, with nothing remote', async () => {
    const email = sampleEmail();
    for (const [name, colorScheme, width] of [
      ['alert-email-light', 'light', 800],
      ['alert-email-dark', 'dark', 800],
      ['alert-email-phone-dark', 'dark', 390],
    ] as const) {
      const context = await suite.newContext({ colorScheme, viewport: { width, height: 900 } });
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.setContent(email.html);
      // Evaluated in the page (strings: this file is type-checked without the DOM library).
      const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      expect(background).toBe(colorScheme === 'dark' ? 'rgb(11, 15, 23)' : 'rgb(244, 245, 247)');
      // Nothing overflows a phone's width.
      const overflow = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      expect(overflow).toBeLessThanOrEqual(0);
      if (TAKE_SCREENSHOTS) {
        await page.screenshot({
          path: fileURLToPath(new URL(`../../docs/screenshots/${name}.png`, import.meta.url)),
          fullPage: true,
        });
      }
      expect(requests).toEqual([]);
    }
  });
});

function sampleEmail() {
  const at = new Date('2026-11-24T09:12:00Z');
  const match = (id: number, monitorId: string, fields: Partial<Match>): Match => ({
    id: String(id),
    monitorId,
    source: 'hackernews',
    kind: 'post',
    title: null,
    titleHighlights: [],
    threadTitle: null,
    threadId: null,
    intents: [],
    sentiment: null,
    language: null,
    signalsCorrected: false,
    snippet: '',
    highlights: [],
    hitFields: [],
    url: null,
    permalink: `https://news.ycombinator.com/item?id=${42000000 + id}`,
    author: 'someone',
    community: null,
    itemCreatedAt: new Date(at.getTime() - id * 7 * 60_000).toISOString(),
    matchedAt: at.toISOString(),
    read: false,
    rating: null,
    relevance: null,
    relevanceReasons: [],
    ...fields,
  });
  return renderAlertEmail({
    timeZone: 'Europe/Paris',
    monitors: [
      { id: 'm1', name: '', query: 'pglite', count: 3 },
      { id: 'm2', name: 'Competitors', query: 'supabase OR neon', count: 2 },
    ],
    listed: [
      match(1, 'm1', {
        title: 'Show HN: PGlite 1.0 – Postgres in WASM, 3 MB gzipped',
        snippet:
          'PGlite is a WASM Postgres build packaged into a TypeScript library, so you can run Postgres in the browser, Node.js and Bun.',
        highlights: [[0, 6]],
        url: 'https://pglite.dev/',
        author: 'samwillis',
      }),
      match(2, 'm1', {
        kind: 'comment',
        snippet:
          'We moved our test suite from Docker Postgres to PGlite and it went from 4 minutes to 40 seconds. The catch: no extensions beyond the bundled ones.',
        highlights: [[48, 54]],
        author: 'tptacek',
      }),
      match(3, 'm1', {
        source: 'reddit',
        community: 'PostgreSQL',
        title: 'Is PGlite ready for production local-first apps?',
        snippet:
          'Is PGlite ready for production local-first apps? We are evaluating it against SQLite + CRDTs.',
        highlights: [[3, 9]],
        author: 'u_devon',
      }),
      match(4, 'm2', {
        source: 'lobsters',
        title: 'Neon branches vs Supabase preview databases',
        snippet:
          'Neon branches vs Supabase preview databases: a practical comparison for CI pipelines.',
        highlights: [
          [0, 4],
          [17, 25],
        ],
        author: 'jcs',
      }),
      match(5, 'm2', {
        title: 'Supabase raises Series E',
        snippet: 'Supabase raises Series E to build the Postgres development platform.',
        highlights: [[0, 8]],
      }),
    ],
    total: 5,
    capReached: null,
    links: {
      alerts: 'https://earshot.example/dashboard/alerts',
      settings: 'https://earshot.example/dashboard/settings',
      unsubscribe: 'https://earshot.example/unsubscribe?token=abc',
    },
  });
}
