import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { monitorSchema } from '../../src/shared/monitor.ts';
import { browserAvailability, openPage } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { deliverItems, recordedItems } from '../support/feed.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** An OR of words common in the recorded items, none a stop word. */
const BROAD = ['https', 'http', 'youtube', 'watch', 'imgur', 'like', 'time', 'people'];

// Issue 20: the preview as the browser uses it. Previews here may take 2% of the database's
// time, so each runs for a second or more: long enough for typing to overtake it.
describe.runIf(availability.run)('the preview’s cost in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
    app = await startTestApp({
      webRoot: path.join(ROOT, 'dist', 'web'),
      env: { PREVIEW_BUDGET_ITEMS: '50', PREVIEW_DB_SHARE_PERCENT: '2' },
    });
    await deliverItems(app, recordedItems(600));
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('typing cancels the preview of the older text; an estimate says what it rests on; a capped monitor says so', async () => {
    const user = await app.createUser({ givenName: 'Ada' });
    const tokens = await app.signIn(user);
    await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} });
    const context = await browser.newContext({ baseURL: app.url });
    await context.addInitScript((value) => {
      if (!localStorage.getItem('token')) localStorage.setItem('token', value);
    }, JSON.stringify(tokens));
    const { page, problems } = await openPage(context);
    const cancelled: string[] = [];
    page.on('requestfailed', (request) => {
      if (request.url().endsWith('/api/monitors/preview')) {
        cancelled.push(request.failure()?.errorText ?? '');
      }
    });

    await page.goto('/dashboard/monitors');
    await page.getByRole('button', { name: 'Write your own' }).click();
    const dialog = page.getByTestId('monitor-dialog');
    const query = dialog.getByLabel('Query', { exact: true });
    // A word at a time, each after the preview of the one before has started.
    for (let n = 1; n <= BROAD.length; n++) {
      const text = BROAD.slice(0, n).join(' OR ');
      const started = page.waitForRequest(
        (request) =>
          request.url().endsWith('/api/monitors/preview') &&
          (request.postDataJSON() as { query?: string } | null)?.query === text,
      );
      await query.fill(text);
      await started;
    }
    await dialog
      .getByTestId('preview-summary')
      .getByText(/^About \d+ matches this week/)
      .waitFor();
    expect(await dialog.getByTestId('preview-estimate').textContent()).toMatch(
      /^Estimated: it matches so many posts that the preview read only the newest \d+ \(the last \d+ (hours|minutes)\) and scaled what it found to the week\./,
    );
    expect(cancelled.length).toBeGreaterThanOrEqual(BROAD.length - 2);
    expect(new Set(cancelled)).toEqual(new Set(['net::ERR_ABORTED']));
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A monitor that reached MONITOR_MATCHES_PER_HOUR: its card says what was left out.
    const created = await app.api('/api/monitors', {
      token: tokens.AccessToken,
      method: 'POST',
      body: { query: 'game', name: 'Games' },
    });
    expect(created.status).toBe(201);
    monitorSchema.parse(await created.json());
    await deliverItems(app, recordedItems(800).slice(600), { matchesPerHour: 3 });
    await page.reload();
    const notice = page.getByTestId('monitor-capped');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /^Too many matches this hour: 3 stored, \d+ more not kept\. It stores matches again from /,
    );
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
