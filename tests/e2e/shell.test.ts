import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserAvailability, openPage } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type E2eApp, type E2eUser, startE2eApp } from '../support/e2e-app.ts';
import { createUnverifiableTokenRecord } from '../support/fake-tokens.ts';

const availability = browserAvailability();
const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };

/** How far the page scrolls sideways, in CSS pixels: 0 when nothing is wider than the viewport. */
function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
}

describe.runIf(availability.run)('the web shell in Chromium', () => {
  let e2e: E2eApp;
  let browser: Browser;
  let ada: E2eUser;

  beforeAll(async () => {
    e2e = await startE2eApp();
    browser = await connectBrowser(availability.run ? availability.path : '');
    ada = await e2e.createConfirmedUser({ givenName: 'Ada', familyName: 'Lovelace' });
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.close();
  });

  async function pageWithSession(
    viewport: { width: number; height: number },
    record?: object | 'real',
  ) {
    const context = await browser.newContext({ viewport, baseURL: e2e.app.url });
    if (record === 'real') {
      await e2e.seedSession(context, ada);
    } else if (record) {
      await context.addInitScript((value) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('token', value);
          sessionStorage.setItem('seeded', '1');
        }
      }, JSON.stringify(record));
    }
    const opened = await openPage(context);
    return { context, ...opened };
  }

  test('the home page renders without the dashboard layout', async () => {
    const { context, page, problems } = await pageWithSession(DESKTOP);
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(
      /Hear every mention/,
    );
    expect(await page.getByRole('link', { name: /sign up/i }).count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: /log in/i }).count()).toBeGreaterThan(0);
    expect(await page.getByTestId('sidebar').count()).toBe(0);
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  test('the production build serves no source maps', async () => {
    const html = await (await fetch(`${e2e.app.url}/account/login`)).text();
    const scripts = [...html.matchAll(/src="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const code = await (await fetch(`${e2e.app.url}${script}`)).text();
      expect(code, script).not.toMatch(/sourceMappingURL/);
      expect((await fetch(`${e2e.app.url}${script}.map`)).status, `${script}.map`).toBe(404);
    }
  });

  test('/dashboard/monitors without a token redirects to /account/login', async () => {
    const { context, page, problems } = await pageWithSession(DESKTOP);
    await page.goto('/dashboard/monitors');
    await page.waitForURL(/\/account\/login/);
    expect(new URL(page.url()).pathname).toBe('/account/login');
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  test('an expired token record redirects to the login page', async () => {
    const record = await createUnverifiableTokenRecord({ expiresInSeconds: -60 });
    const { context, page } = await pageWithSession(DESKTOP, record);
    await page.goto('/dashboard/alerts');
    await page.waitForURL(/\/account\/login/);
    expect(new URL(page.url()).pathname).toBe('/account/login');
    await context.close();
  });

  test('with a valid token record the dashboard shows the sidebar on desktop', async () => {
    const { context, page, problems } = await pageWithSession(DESKTOP, 'real');
    await page.goto('/dashboard/monitors');
    const sidebar = page.getByTestId('sidebar');
    await sidebar.waitFor({ state: 'visible' });
    for (const item of ['Monitors', 'Alerts', 'Settings']) {
      expect(await sidebar.getByRole('link', { name: item }).isVisible()).toBe(true);
    }
    expect(await sidebar.getByRole('button', { name: 'Log Out' }).isVisible()).toBe(true);
    expect(await page.getByTestId('header-user').textContent()).toContain('Ada');
    expect(await page.getByTestId('mobile-menu-button').isVisible()).toBe(false);
    const help = page.getByRole('region', { name: 'How to write a query' });
    expect(await help.getByRole('row').count()).toBeGreaterThan(8);
    expect(await help.textContent()).toContain('"open source"');
    await page.getByTestId('header-user').click();
    await page.waitForURL(/\/dashboard\/settings$/);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await page.goto('/dashboard/monitors');
    await sidebar.waitFor({ state: 'visible' });
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  test('on a phone the sidebar becomes a bottom sheet', async () => {
    const { context, page, problems } = await pageWithSession(MOBILE, 'real');
    await page.goto('/dashboard/monitors');
    await page.getByTestId('mobile-menu-button').waitFor({ state: 'visible' });
    expect(await page.getByTestId('sidebar').isVisible()).toBe(false);
    // Nothing wider than the phone: the page does not scroll sideways.
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    await page.getByTestId('mobile-menu-button').click();
    const sheet = page.getByTestId('bottom-sheet');
    await sheet.waitFor({ state: 'visible' });
    await sheet.getByRole('link', { name: 'Alerts' }).waitFor({ state: 'visible' });
    await sheet.getByRole('link', { name: 'Alerts' }).click();
    await page.waitForURL(/\/dashboard\/alerts$/);
    await sheet.waitFor({ state: 'hidden' });
    for (const route of ['/dashboard/alerts', '/dashboard/settings']) {
      await page.goto(route);
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect({ route, overflow: await sidewaysOverflow(page) }).toEqual({ route, overflow: 0 });
    }
    expect(problems.errors).toEqual([]);
    await context.close();
  });

  test('Log Out empties storage and lands on the login page', async () => {
    const { context, page, problems } = await pageWithSession(DESKTOP, 'real');
    await page.goto('/dashboard/monitors');
    await page.getByTestId('sidebar').getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(/\/account\/login$/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await page.goto('/dashboard/monitors');
    await page.waitForURL(/\/account\/login/);
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
