import path from 'node:path';
import { text } from 'node:stream/consumers';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { parseRssFeed } from 'feedsmith';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { startDelivery } from '../../src/delivery/start-delivery.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import { browserAvailability, openPage } from '../support/browser.ts';
import { connectBrowser, useBrowserSuite } from '../support/browser-suite.ts';
import { createItem, createMatch, createMonitor } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.ts';

const availability = browserAvailability();

// The pipes out of Earshot, as a person uses them: an API key made in Settings, copied, used
// from outside the browser, and revoked; the API's reference page.
describe.runIf(availability.run)('open pipes in Chromium', () => {
  const suite = useBrowserSuite(availability.run ? availability.path : '');

  test('create an API key, copy it, call the API with it, revoke it', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const context = await suite.newContext({
      viewport: { width: 1280, height: 900 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    await suite.e2e.seedSession(context, user);
    const { page, problems } = await openPage(context);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    await page.getByText('No API keys yet.').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('My script');
    await page.getByLabel('Scope').selectOption('read');
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-api-key');
    await shown.waitFor();
    await shown.getByRole('button', { name: 'Copy' }).click();
    await shown.getByRole('button', { name: 'Copied' }).waitFor();
    const key = String(await page.evaluate('navigator.clipboard.readText()'));
    expect(key).toMatch(/^esk_[A-Za-z0-9_-]{32}$/);
    expect(await shown.locator('code').textContent()).toBe(key);

    const call = () =>
      fetch(`${suite.e2e.app.url}/api/monitors`, { headers: { Authorization: `Bearer ${key}` } });
    const allowed = await call();
    expect(allowed.status).toBe(200);
    expect(await allowed.json()).toEqual([]);

    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByTestId('api-key').filter({ hasText: 'My script' });
    await row.getByText(key.slice(0, 12)).waitFor();
    await row
      .getByText(/last used just now/)
      .waitFor({ timeout: 1 })
      .catch(async () => {
        await page.reload();
        await page
          .getByTestId('api-key')
          .getByText(/last used just now/)
          .waitFor();
      });
    await page.getByTestId('api-key').getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Revoke “My script”' }).click();
    await page.getByText(/revoked\. Requests with it are refused/).waitFor();
    await page.getByText('No API keys yet.').waitFor();
    expect((await call()).status).toBe(401);
    expect(problems.errors).toEqual([]);
  });

  test('/docs/api renders the OpenAPI document with the bundled renderer, inside the CSP', async () => {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    const { page, problems } = await openPage(context);
    const outside: string[] = [];
    const origin = new URL(suite.e2e.app.url).origin;
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:'))
        outside.push(request.url());
    });
    await page.goto('/docs/api');
    await page.getByRole('heading', { name: 'Earshot API' }).first().waitFor();
    // Both schemes of the document, the key preferred (the bundle is large: allow it time).
    await page.getByText('Selected Auth Type: apiKey').waitFor({ timeout: 60_000 });
    await page
      .getByText(/Authorization: Bearer esk_/)
      .first()
      .waitFor();
    expect(outside).toEqual([]);
    expect(problems.errors).toEqual([]);
  });
});

// The export, the feed and the webhook history need matches and a delivery loop: the app is served
// in this process, so the test stores matches directly and runs delivery beside it.
describe.runIf(availability.run)(
  'CSV export, a feed link and the webhook history in Chromium',
  () => {
    let app: TestApp;
    let browser: Awaited<ReturnType<typeof connectBrowser>>;
    let receiver: WebhookReceiver;
    let stopDelivery: (() => Promise<void>) | undefined;
    beforeAll(async () => {
      browser = await connectBrowser(availability.run ? availability.path : '');
      receiver = await startWebhookReceiver();
      app = await startTestApp({
        webRoot: fileURLToPath(new URL('../../dist/web', import.meta.url)),
        env: {
          WEBHOOK_ALLOW_PRIVATE: 'true',
          ALERT_BATCH_SECONDS: '0',
          DELIVERY_POLL_MS: '100',
          // One attempt, so a call the receiver refuses fails at once instead of being retried.
          DELIVERY_MAX_ATTEMPTS: '1',
        },
      });
      const logger = createLogger('silent');
      const config = app.config;
      stopDelivery = await startDelivery({
        db: app.database.db,
        config,
        logger,
        mailer: createMailer({ config, logger }),
      });
    });
    afterAll(async () => {
      await stopDelivery?.();
      await browser?.close();
      await app?.close();
      await receiver?.close();
    });

    test('export CSV, copy the monitor’s feed link and read it, send a failed webhook call again', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} });
      const monitor = await createMonitor(app.database.db, { userId: user.sub, name: 'Formulas' });
      for (const title of ['=1+1', 'A plain title']) {
        await createMatch(app.database.db, {
          monitor,
          item: await createItem(app.database.db, { title }),
        });
      }
      const context = await browser.newContext({
        baseURL: app.url,
        acceptDownloads: true,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      const record = JSON.stringify({
        AccessToken: tokens.AccessToken,
        IdToken: tokens.IdToken,
        RefreshToken: tokens.RefreshToken,
      });
      await context.addInitScript((value) => localStorage.setItem('token', value), record);
      const { page, problems } = await openPage(context);
      await page.goto('/dashboard/alerts');
      await page.getByText('A plain title').first().waitFor();
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export CSV' }).click(),
      ]);
      // Read through Playwright: on a shared Chromium (connected to) the file has no local path.
      const csv = await text(await download.createReadStream());
      const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
      expect(path.extname(download.suggestedFilename())).toBe('.csv');
      expect(rows.map((row) => row.title).sort()).toEqual(["'=1+1", 'A plain title']);

      // The monitor's feed: made, copied, read by a feed parser from outside the browser.
      await page.goto('/dashboard/monitors');
      await page.getByRole('button', { name: 'Edit Formulas' }).click();
      const feed = page.getByTestId('alert-feed');
      await feed.getByRole('button', { name: 'Make feed link' }).click();
      await feed.getByRole('button', { name: 'Copy the RSS link' }).click();
      await feed.getByRole('button', { name: 'Copied the RSS link' }).waitFor();
      const link = String(await page.evaluate('navigator.clipboard.readText()'));
      expect(link).toMatch(/\/feeds\/[A-Za-z0-9_-]{32}\/rss\.xml$/);
      const rss = parseRssFeed(await (await fetch(link)).text());
      expect(rss.items?.map((item) => item.title).sort()).toEqual(['=1+1', 'A plain title']);

      // A webhook call the receiver answers 500: failed, shown, sent again, then taken.
      const hook = await app.api(`/api/monitors/${monitor.id}`, {
        token: tokens.AccessToken,
        method: 'PATCH',
        body: { webhook: { kind: 'json', url: receiver.url } },
      });
      expect(hook.status).toBe(200);
      receiver.script('fail');
      await createMatch(app.database.db, {
        monitor,
        item: await createItem(app.database.db, { title: 'A call that fails first' }),
      });
      await vi.waitFor(
        async () => {
          const calls = await app.api(`/api/monitors/${monitor.id}/webhook/calls`, {
            token: tokens.AccessToken,
          });
          expect(((await calls.json()) as Array<{ state: string }>)[0]?.state).toBe('failed');
        },
        { timeout: 15_000, interval: 100 },
      );
      await page.reload();
      await page.getByRole('button', { name: 'Edit Formulas' }).click();
      const failed = page.locator('[data-testid="delivery"][data-state="failed"]');
      await failed.getByText('status 500').waitFor();
      await failed.getByText('HTTP 500').waitFor();
      await failed.getByRole('button', { name: 'Send again' }).click();
      await page
        .locator('[data-testid="delivery"][data-state="sent"]')
        .getByText('status 200')
        .waitFor();
      expect(receiver.calls).toHaveLength(2);
      expect(receiver.taken()).toHaveLength(1);
      expect(receiver.taken()[0]?.body).toBe(receiver.calls[0]?.body);
      expect(problems.errors).toEqual([]);
      await context.close();
    });
  },
);
