import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserAvailability, launchBrowser, openPage } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { createItem, createMatch, createMonitor } from '../support/factories.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

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

// The export needs matches: the app is served in this process, so the test stores them directly.
describe.runIf(availability.run)('CSV export in Chromium', () => {
  let app: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  beforeAll(async () => {
    browser = await launchBrowser(availability.run ? availability.path : '');
    app = await startTestApp({
      webRoot: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('Export CSV downloads the matches of the current filters', async () => {
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
    const context = await browser.newContext({ baseURL: app.url, acceptDownloads: true });
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
    const file = await download.path();
    const rows = parse(await readFile(file, 'utf8'), { columns: true }) as Array<
      Record<string, string>
    >;
    expect(path.extname(download.suggestedFilename())).toBe('.csv');
    expect(rows.map((row) => row.title).sort()).toEqual(["'=1+1", 'A plain title']);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
