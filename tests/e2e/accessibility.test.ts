import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seriousViolations } from '../support/axe.ts';
import { browserAvailability } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type E2eApp, type E2eUser, startE2eApp } from '../support/e2e-app.ts';

const availability = browserAvailability();

describe.runIf(availability.run)('accessibility (axe-core, WCAG 2.1 AA)', () => {
  let browser: Browser;
  let e2e: E2eApp;
  let user: E2eUser;

  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
    e2e = await startE2eApp();
    user = await e2e.createConfirmedUser();
  });
  afterAll(async () => {
    await browser?.close();
    await e2e?.close();
  });

  const PUBLIC_PAGES = [
    '/',
    '/account/login',
    '/account/signup',
    '/account/confirm',
    '/account/forgot-password',
    '/account/reset-password',
  ];
  const DASHBOARD_PAGES = ['/dashboard/monitors', '/dashboard/alerts', '/dashboard/settings'];

  for (const [name, viewport, colorScheme] of [
    ['desktop', { width: 1280, height: 800 }, 'light'],
    ['phone', { width: 390, height: 844 }, 'light'],
    ['desktop in dark mode', { width: 1280, height: 800 }, 'dark'],
  ] as const) {
    test(`public pages have no serious violations on a ${name}`, async () => {
      // bypassCSP only lets the test inject axe-core; the app's own scripts are unchanged.
      const context = await browser.newContext({
        viewport,
        colorScheme,
        baseURL: e2e.app.url,
        bypassCSP: true,
      });
      const page = await context.newPage();
      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await context.close();
    });

    test(`dashboard pages have no serious violations on a ${name}`, async () => {
      const context = await browser.newContext({
        viewport,
        colorScheme,
        baseURL: e2e.app.url,
        bypassCSP: true,
      });
      await e2e.seedSession(context, user);
      const page = await context.newPage();
      for (const path of DASHBOARD_PAGES) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForLoadState('networkidle');
        expect(await seriousViolations(page), path).toEqual([]);
      }
      await context.close();
    });
  }
});
