import { describe, expect, test } from 'vitest';
import { browserAvailability, openPage } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';

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
