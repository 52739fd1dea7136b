import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { matchPageSchema } from '../../src/shared/match.ts';
import { monitorSchema } from '../../src/shared/monitor.ts';
import { seriousViolations } from '../support/axe.ts';
import { browserAvailability, openPage, TAKE_SCREENSHOTS, UI_WAIT } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOTS = path.join(ROOT, 'docs', 'screenshots');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

// The Monitors and Alerts pages in Chromium against the built app, served in this process so
// the test brings items through the pipeline's entry point (storeItems + matchNewItems) and
// the live feed announces the matches, exactly as the ingestion workers will.
describe.runIf(availability.run)('monitors and alerts in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
    app = await startTestApp({
      webRoot: path.join(ROOT, 'dist', 'web'),
      liveFeed: { pollMs: 500 },
    });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await app?.close();
  });

  async function signedInUser() {
    const user = await app.createUser({ givenName: 'Ada' });
    const tokens = await app.signIn(user);
    await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} });
    return { ...user, tokens };
  }

  async function contextFor(
    user: Awaited<ReturnType<typeof signedInUser>>,
    options: { viewport: { width: number; height: number }; colorScheme?: 'light' | 'dark' },
  ) {
    // bypassCSP only lets the test inject axe-core; the app's own scripts are unchanged (and the
    // XSS checks below then rely on rendering alone, not on the CSP).
    const context = await browser.newContext({ baseURL: app.url, bypassCSP: true, ...options });
    contexts.push(context);
    const record = JSON.stringify({
      AccessToken: user.tokens.AccessToken,
      IdToken: user.tokens.IdToken,
      RefreshToken: user.tokens.RefreshToken,
    });
    await context.addInitScript((value) => {
      if (!localStorage.getItem('token')) localStorage.setItem('token', value);
    }, record);
    return context;
  }

  async function expectAxeClean(page: Page, what: string) {
    expect(await seriousViolations(page), what).toEqual([]);
  }

  test('empty state → monitor → live highlighted match → filter, search, read, dismiss → edit → delete with undo', async () => {
    const user = await signedInUser();
    const context = await contextFor(user, { viewport: DESKTOP });
    // The live syntax check's 400 (a query that does not parse) is the designed answer.
    const { page, problems } = await openPage(context, [/status of 400 \(Bad Request\)/]);
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(dialog.message());
      void dialog.dismiss();
    });

    // Something from this week for the preview to find.
    await deliverItems(app, [
      testItem({ title: 'Zigzag, a year in production', body: 'We run zigzag everywhere now.' }),
    ]);

    await page.goto('/dashboard/monitors');
    await page.getByRole('heading', { name: 'No monitors yet' }).waitFor();
    expect(
      await page.getByRole('list', { name: 'Example monitors' }).getByRole('button').count(),
    ).toBe(3);
    await expectAxeClean(page, 'monitors, empty');
    await page.getByRole('button', { name: 'Write your own' }).click();
    const dialog = page.getByTestId('monitor-dialog');
    const query = dialog.getByLabel('Query', { exact: true });
    // The syntax is checked as it is typed, and the error points at its character.
    await query.fill('zigzag OR (');
    await dialog.getByTestId('query-error').waitFor();
    expect(await dialog.getByTestId('query-error').textContent()).toMatch(/^At character \d+: /);
    expect(await dialog.getByRole('button', { name: 'Create monitor' }).isDisabled()).toBe(true);
    await query.fill('zigzag OR "zig zag"');
    await dialog
      .getByTestId('preview-summary')
      .getByText(/^1 match this week/)
      .waitFor();
    expect(await dialog.getByTestId('monitor-preview').textContent()).toContain(
      'Zigzag, a year in production',
    );
    await dialog.getByLabel('Name (optional)').fill('Zigzag');
    await expectAxeClean(page, 'monitor dialog');
    await dialog.getByRole('button', { name: 'Create monitor' }).click();
    await page.getByTestId('monitor-card').getByRole('heading', { name: 'Zigzag' }).waitFor();

    // The Alerts page: the match arrives live, without a reload, highlighted.
    await page.getByRole('link', { name: 'Alerts' }).first().click();
    await page.getByRole('heading', { name: 'Nothing heard yet' }).waitFor();
    await deliverItems(app, [
      testItem({ title: 'Zigzag 2.0 released', body: 'The zigzag team shipped it today.' }),
    ]);
    await page.getByTestId('new-matches-pill').getByText('1 new').waitFor({ timeout: 5000 });
    await page.getByTestId('new-matches-pill').click();
    const first = page.getByTestId('match-card').filter({ hasText: 'Zigzag 2.0 released' });
    await first.waitFor();
    // Hit in the title and in the body: marked in both.
    expect(await first.getByTestId('hit').allTextContents()).toEqual(['Zigzag', 'zigzag']);
    await page.getByTestId('unread-count').getByText('1').waitFor();

    // Untrusted content stays text: an HTML body and a javascript: URL.
    await deliverItems(app, [
      testItem({
        source: 'reddit',
        community: 'programming',
        title: 'Zigzag on Reddit',
        body: 'zigzag <img src=x onerror=alert(1)> <script>alert(2)</script>',
        author: 'mallory',
      }),
      testItem({ title: 'Zigzag link', url: 'javascript:alert(3)' }),
    ]);
    await page.getByTestId('new-matches-pill').getByText('2 new').waitFor({ timeout: 5000 });
    await page.getByTestId('new-matches-pill').click();
    const hostile = page.getByTestId('match-card').filter({ hasText: 'Zigzag on Reddit' });
    await hostile.waitFor();
    expect(await hostile.getByTestId('match-snippet').textContent()).toBe(
      'zigzag <img src=x onerror=alert(1)> <script>alert(2)</script>',
    );
    expect(await page.locator('[data-testid="alerts-feed"] img').count()).toBe(0);
    expect(await page.locator('[data-testid="alerts-feed"] script').count()).toBe(0);
    const link = page.getByTestId('match-card').filter({ hasText: 'Zigzag link' });
    expect(await link.getByTestId('match-url-text').textContent()).toBe('javascript:alert(3)');
    expect(await page.locator('a[href^="javascript:"]').count()).toBe(0);
    const external = await first.getByTestId('match-title-link');
    expect(await external.getAttribute('target')).toBe('_blank');
    expect(await external.getAttribute('rel')).toBe('noopener noreferrer');
    await expectAxeClean(page, 'alerts with matches');

    // Filters and search live in the URL.
    await page.getByLabel('Site').selectOption('reddit');
    await page.waitForURL(/source=reddit/);
    await page.getByTestId('match-card').filter({ hasText: 'Zigzag on Reddit' }).waitFor();
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(1);
    await page.getByLabel('Site').selectOption('');
    await page.getByLabel('Search').fill('shipped');
    await page.waitForURL(/q=shipped/);
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(1);
    expect(await page.getByTestId('match-card').textContent()).toContain('Zigzag 2.0 released');
    await page.reload();
    await page.getByTestId('match-card').first().waitFor();
    expect(await page.getByLabel('Search').inputValue()).toBe('shipped');
    await page.getByLabel('Search').fill('');
    await page.waitForURL((url) => !url.search.includes('q='));
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(3);

    // Mark read, then dismiss.
    await page.getByRole('button', { name: 'Mark read: Zigzag 2.0 released' }).click();
    await page
      .getByTestId('match-card')
      .filter({ hasText: 'Zigzag 2.0 released' })
      .and(page.locator('[data-read="true"]'))
      .waitFor();
    await page.getByTestId('unread-count').getByText('2').waitFor();
    await page.getByLabel('Unread only').check();
    await page.waitForURL(/unread=1/);
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(2);
    await page.getByLabel('Unread only').uncheck();
    // Dismiss hides the alert at once and offers undo, as a monitor's delete does; Undo puts it
    // back and nothing is deleted; without it the alert is gone for good once the window passes.
    // The page's clock is moved past the undo window (6 s) rather than waited out: the DELETEs,
    // had Undo not cancelled them, go then.
    const deletes: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'DELETE') deletes.push(new URL(request.url()).pathname);
    });
    await page.clock.install();
    await page.getByRole('button', { name: 'Dismiss: Zigzag link' }).click();
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(2);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByTestId('match-card').filter({ hasText: 'Zigzag link' }).waitFor();
    await page.clock.fastForward(6500);
    // A DELETE the timer had sent would be on its way well within this.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(deletes).toEqual([]);
    const feedTitles = async () =>
      matchPageSchema
        .parse(await (await app.api('/api/matches', { token: user.tokens.AccessToken })).json())
        .items.map((m) => m.title);
    expect(await feedTitles()).toContain('Zigzag link');
    await page.getByRole('button', { name: 'Dismiss: Zigzag link' }).click();
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(2);
    // Not before the window has passed.
    expect(deletes).toEqual([]);
    await page.clock.fastForward(6500);
    await expect.poll(feedTitles, { timeout: 10_000 }).not.toContain('Zigzag link');
    expect(deletes).toHaveLength(1);
    expect(deletes[0]).toMatch(/^\/api\/matches\/\d+$/);
    deletes.length = 0;
    const remaining = matchPageSchema.parse(
      await (await app.api('/api/matches', { token: user.tokens.AccessToken })).json(),
    );
    expect(remaining.items.map((m) => m.title)).toEqual([
      'Zigzag on Reddit',
      'Zigzag 2.0 released',
    ]);
    expect(remaining.items.find((m) => m.title === 'Zigzag 2.0 released')?.read).toBe(true);
    await page.getByTestId('mentions-chart').waitFor();

    // Edit the monitor.
    await page.getByRole('link', { name: 'Monitors' }).first().click();
    await page.getByRole('button', { name: 'Edit Zigzag' }).click();
    await page.getByTestId('monitor-dialog').getByLabel('Name (optional)').fill('Zigzag watch');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('heading', { name: 'Zigzag watch' }).waitFor();

    // Delete asks, and the toast offers undo. The page's clock (installed above) is then moved
    // past the undo window: the delete, had Undo not cancelled it, goes then.
    await page.getByRole('button', { name: 'Delete Zigzag watch' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'No monitors yet' }).waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('heading', { name: 'Zigzag watch' }).waitFor();
    const before = await page.evaluate(() => Date.now());
    await page.clock.fastForward(6500);
    expect(await page.evaluate(() => Date.now())).toBeGreaterThanOrEqual(before + 6500);
    // A delete the timer had sent would be on its way well within this.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(deletes).toEqual([]);
    const still = await app.api('/api/monitors', { token: user.tokens.AccessToken });
    expect(
      z
        .array(monitorSchema)
        .parse(await still.json())
        .map((m) => m.name),
    ).toEqual(['Zigzag watch']);

    await page.getByRole('button', { name: 'Delete Zigzag watch' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('heading', { name: 'No monitors yet' }).waitFor();
    await expect
      .poll(
        async () =>
          z
            .array(monitorSchema)
            .parse(
              await (await app.api('/api/monitors', { token: user.tokens.AccessToken })).json(),
            ).length,
        { timeout: 10_000 },
      )
      .toBe(0);
    expect(alerts).toEqual([]);
    expect(problems.errors).toEqual([]);
  }, 120_000);

  test('both pages at desktop and phone width, light and dark, are axe clean; the home page’s picture', async () => {
    const user = await signedInUser();
    const token = user.tokens.AccessToken;
    const monitors = [
      { name: 'Our database', query: 'pglite OR "embedded postgres"' },
      { name: 'Rust releases', query: 'rust* release -hiring' },
      { name: 'Self-hosting', query: 'self-hosted site:reddit' },
    ];
    for (const body of monitors) {
      const created = await app.api('/api/monitors', { token, method: 'POST', body });
      monitorSchema.parse(await created.json());
    }
    const minutes = (n: number) => new Date(Date.now() - n * 60_000).toISOString();
    await deliverItems(app, [
      testItem({
        title: 'Show HN: PGlite 1.0, Postgres in WASM',
        body: 'PGlite runs a full Postgres in your browser. We use embedded postgres for tests and offline apps.',
        author: 'samwillis',
        createdAt: minutes(2),
      }),
      testItem({
        source: 'reddit',
        community: 'selfhosted',
        kind: 'comment',
        title: null,
        body: 'I moved everything to self-hosted Nextcloud last year and have not looked back.',
        author: 'homelabber',
        createdAt: minutes(12),
      }),
      testItem({
        source: 'lobsters',
        title: 'Rust 1.95 release notes',
        body: 'The Rust release brings async closures and faster builds.',
        author: 'steveklabnik',
        createdAt: minutes(45),
        url: 'https://blog.rust-lang.org/2026/11/20/Rust-1.95.0.html',
      }),
      testItem({
        title: 'Ask HN: Is PGlite ready for production?',
        body: 'We are evaluating pglite for a desktop app.',
        author: 'pg_fan',
        createdAt: minutes(90),
      }),
    ]);
    await app.api('/api/matches/mark-read', {
      token,
      method: 'POST',
      body: { monitorId: undefined },
    });
    await deliverItems(app, [
      testItem({
        source: 'reddit',
        community: 'rust',
        title: 'Rustls release 0.24 is out',
        body: 'A new rustls release with post-quantum key exchange.',
        author: 'ctz',
        createdAt: minutes(1),
      }),
    ]);

    for (const [name, viewport, colorScheme] of [
      ['desktop', DESKTOP, 'light'],
      ['phone', PHONE, 'light'],
      ['desktop-dark', DESKTOP, 'dark'],
    ] as const) {
      const context = await contextFor(user, { viewport, colorScheme });
      const { page, problems } = await openPage(context);
      await page.goto('/dashboard/alerts');
      await page.getByTestId('match-card').first().waitFor();
      await page.getByTestId('mentions-chart').waitFor();
      await expectAxeClean(page, `alerts ${name}`);
      await page.goto('/dashboard/monitors');
      await page.getByTestId('monitor-card').first().waitFor();
      await expectAxeClean(page, `monitors ${name}`);
      // Nothing overflows a 390 px screen sideways.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(
        viewport.width,
      );
      expect(problems.errors).toEqual([]);
    }

    // The home page's picture of the product: the real Alerts page at 2× (2560 × 1800 px), made
    // into AVIF/WebP/JPEG at every width by the web build (scripts/build-images.ts).
    // Taken by `npm run screenshots` only.
    if (TAKE_SCREENSHOTS) {
      const retina = await browser.newContext({
        baseURL: app.url,
        viewport: DESKTOP,
        deviceScaleFactor: 2,
      });
      contexts.push(retina);
      await retina.addInitScript((value) => {
        if (!localStorage.getItem('token')) localStorage.setItem('token', value);
      }, JSON.stringify(user.tokens));
      const { page } = await openPage(retina);
      await page.goto('/dashboard/alerts');
      await page.getByTestId('match-card').first().waitFor();
      await page.getByTestId('mentions-chart').waitFor();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'alerts-home.png') });
    }
  }, 120_000);

  test('the feed loads older alerts as it is scrolled (infinite scroll), without repeats', async () => {
    const user = await signedInUser();
    const created = await app.api('/api/monitors', {
      token: user.tokens.AccessToken,
      method: 'POST',
      body: { query: 'scrollword' },
    });
    expect(created.status).toBe(201);
    await deliverItems(
      app,
      Array.from({ length: 70 }, (_, i) => testItem({ title: `scrollword story ${i}` })),
    );
    const context = await contextFor(user, { viewport: PHONE });
    const { page, problems } = await openPage(context);
    await page.goto('/dashboard/alerts');
    await page.getByTestId('match-card').first().waitFor();
    expect(await page.getByTestId('match-card').count()).toBe(30);
    // Each scroll to the end of the feed brings the next page.
    for (let shown = 30; shown < 70; shown = await page.getByTestId('match-card').count()) {
      await page.getByTestId('load-more').scrollIntoViewIfNeeded();
      await expect
        .poll(() => page.getByTestId('match-card').count(), UI_WAIT)
        .toBeGreaterThan(shown);
    }
    expect(await page.getByTestId('match-card').count()).toBe(70);
    const titles = await page.getByTestId('match-title-link').allTextContents();
    expect(new Set(titles).size).toBe(70);
    expect(await page.getByTestId('load-more').count()).toBe(0);
    expect(problems.errors).toEqual([]);
  }, 60_000);

  test('the "N new" pill counts what the view would show, and a click scrolls to the first new alert and focuses it', async () => {
    const user = await signedInUser();
    const token = user.tokens.AccessToken;
    for (const query of ['pillword', 'otherword']) {
      const created = await app.api('/api/monitors', { token, method: 'POST', body: { query } });
      expect(created.status).toBe(201);
    }
    await deliverItems(
      app,
      Array.from({ length: 12 }, (_, i) => testItem({ title: `pillword older story ${i}` })),
    );
    const context = await contextFor(user, { viewport: PHONE });
    const { page, problems } = await openPage(context);
    const pill = page.getByTestId('new-matches-pill');

    // A search is active: of three new matches, only the two it finds are counted.
    await page.goto('/dashboard/alerts?q=alpha');
    await page.getByRole('heading', { name: 'No alerts match' }).waitFor();
    await deliverItems(app, [
      testItem({ title: 'pillword alpha arrives' }),
      testItem({ title: 'pillword beta arrives' }),
      testItem({ title: 'otherword alpha arrives' }),
    ]);
    await pill.getByText('2 new').waitFor({ timeout: 5000 });
    await page.waitForTimeout(1000);
    expect(await pill.textContent()).toBe('2 new');
    // And a monitor's filter as well: only its own alpha match.
    const monitors = z
      .array(monitorSchema)
      .parse(await (await app.api('/api/monitors', { token })).json());
    const pillMonitor = monitors.find((m) => m.query === 'pillword');
    await page.goto(`/dashboard/alerts?q=alpha&monitor=${pillMonitor?.id}`);
    await page.getByTestId('match-card').first().waitFor();
    await deliverItems(app, [
      testItem({ title: 'otherword alpha again' }),
      testItem({ title: 'pillword alpha again' }),
      testItem({ title: 'pillword gamma again' }),
    ]);
    await pill.getByText('1 new').waitFor({ timeout: 5000 });
    await page.waitForTimeout(1000);
    expect(await pill.textContent()).toBe('1 new');

    // The whole feed, read from the bottom: a click brings the first new one into view, focused.
    await page.goto('/dashboard/alerts');
    await page.getByTestId('match-card').first().waitFor();
    await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
    const before = await page.evaluate<number>('window.scrollY');
    expect(before).toBeGreaterThan(300);
    await deliverItems(app, [testItem({ title: 'pillword newest of all' })]);
    await pill.getByText('1 new').waitFor({ timeout: 5000 });
    await pill.click();
    const newest = page.getByTestId('match-card').filter({ hasText: 'pillword newest of all' });
    await newest.waitFor();
    await expect
      .poll(() => page.evaluate<string>('document.activeElement?.textContent ?? ""'), UI_WAIT)
      .toContain('pillword newest of all');
    const box = await newest.boundingBox();
    expect(box?.y).toBeGreaterThanOrEqual(0);
    expect(box?.y).toBeLessThan(PHONE.height / 2);
    expect(await page.getByRole('status').filter({ hasText: '1 new alert shown' }).count()).toBe(1);
    expect(await pill.count()).toBe(0);
    expect(problems.errors).toEqual([]);
  }, 90_000);

  test('a failing API shows a readable error with a retry that works', async () => {
    const user = await signedInUser();
    const context = await contextFor(user, { viewport: PHONE });
    const { page } = await openPage(context, [/Failed to load resource/, /net::ERR_FAILED/]);
    await page.route('**/api/matches?*', (route) => route.abort());
    await page.goto('/dashboard/alerts');
    await page
      .getByTestId('alerts-error')
      .getByText(/Cannot reach Earshot/)
      .waitFor();
    await page.unroute('**/api/matches?*');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'Nothing heard yet' }).waitFor();

    await page.route('**/api/monitors', (route) => route.abort());
    await page.goto('/dashboard/monitors');
    await page.getByTestId('monitors-error').waitFor();
    await page.unroute('**/api/monitors');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByRole('heading', { name: 'No monitors yet' }).waitFor();
  }, 60_000);
});
