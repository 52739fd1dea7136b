import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { pollDueFeeds } from '../../src/pipeline/poll-feeds.ts';
import { browserAvailability, openPage } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type FeedServer, startFeedServer } from '../support/feed-server.ts';
import { silentLogger } from '../support/silent-logger.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// Settings → Sources in Chromium against the built app: a feed added by URL (the recorded JSON
// Feed, served over real HTTP), previewed and saved; the poller and the matchers then bring its
// entries in, and a monitor with feed:"…" gets its alert.
describe.runIf(availability.run)('feeds by URL in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let server: FeedServer;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
    server = await startFeedServer();
    app = await startTestApp({
      webRoot: path.join(ROOT, 'dist', 'web'),
      liveFeed: { pollMs: 500 },
      env: { FEEDS_ALLOW_PRIVATE: 'true' },
    });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await app?.close();
    await server?.close();
  });

  test('paste a URL, see its preview, save it; a monitor with feed:"…" gets its alert', async () => {
    const user = await app.createUser({ givenName: 'Ada' });
    const tokens = await app.signIn(user);
    await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} });
    const context = await browser.newContext({ baseURL: app.url });
    contexts.push(context);
    const record = JSON.stringify({
      AccessToken: tokens.AccessToken,
      IdToken: tokens.IdToken,
      RefreshToken: tokens.RefreshToken,
    });
    await context.addInitScript((value) => {
      if (!localStorage.getItem('token')) localStorage.setItem('token', value);
    }, record);
    // A page that links no feed answers 400 by design: the form shows its words.
    const { page, problems } = await openPage(context, [/status of 400 \(Bad Request\)/]);

    await page.goto('/dashboard/settings');
    const address = page.getByLabel('Feed or forum address');
    server.set('/about', {
      type: 'text/html',
      body: '<!doctype html><html><head><title>About</title></head><body>hi</body></html>',
    });
    await address.fill(server.url('/about'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.getByText('not a feed: the page links no feed').waitFor();

    server.set('/blog/', {
      type: 'text/html',
      body: '<!doctype html><html><head><link rel="alternate" type="application/feed+json" href="/recorded/jsonfeed-inessential-2017-06-02.json"></head><body>blog</body></html>',
    });
    await address.fill(server.url('/blog/'));
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText('inessential.com', { exact: true }).waitFor();
    expect(await preview.getByRole('listitem').count()).toBe(5);
    await preview
      .getByRole('link', { name: 'James Dempsey and the Breakpoints Benefit App Camp for Girls' })
      .waitFor();
    await preview.getByRole('button', { name: 'Add this source' }).click();
    const sources = page.getByRole('list', { name: 'Your sources' });
    await sources.getByText('Not read yet').waitFor();

    // The monitor form's Feeds box names the user's feeds as a query names them.
    await page.goto('/dashboard/monitors');
    await page.getByRole('button', { name: 'Write your own' }).click();
    await page.getByTestId('your-feeds').getByText('Yours: feed:"inessential.com"').waitFor();
    await page.keyboard.press('Escape');

    const monitor = await app.api('/api/monitors', {
      token: tokens.AccessToken,
      method: 'POST',
      body: { name: 'Breakpoints', query: 'feed:"inessential.com" breakpoints' },
    });
    expect(monitor.status).toBe(201);

    // The worker's round: poll the due feed, then match, as the pipeline does.
    const polled = await pollDueFeeds({
      db: app.database.db,
      config: app.config,
      logger: silentLogger,
    });
    expect(polled).toEqual({ fetched: 1, stored: 20 });
    const index = await loadMonitorIndex(app.database.db);
    await matchNewItems({ db: app.database.db, index, events: app.matchEvents });

    await page.goto('/dashboard/settings');
    await sources.getByText(/Read .* · 20 items/u).waitFor();
    await page.goto('/dashboard/alerts');
    const card = page
      .getByTestId('match-card')
      .filter({ hasText: 'James Dempsey and the Breakpoints Benefit App Camp for Girls' });
    await card.waitFor();
    // The word is marked where it is: in the title, and in the text around it.
    const hits = await card.getByTestId('hit').allTextContents();
    expect(hits.length).toBeGreaterThan(0);
    expect(new Set(hits)).toEqual(new Set(['Breakpoints']));
    expect(problems.errors).toEqual([]);
  });
});
