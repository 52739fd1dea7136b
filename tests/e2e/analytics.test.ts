import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserAvailability, openPage } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type E2eApp, startE2eApp } from '../support/e2e-app.ts';
import { startRequestRecorder } from '../support/request-recorder.ts';

const availability = browserAvailability();

describe.runIf(availability.run)('analytics in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
  });
  afterAll(async () => {
    await browser?.close();
  });

  test('without a PostHog key no request leaves for any other host', async () => {
    const e2e = await startE2eApp();
    try {
      const user = await e2e.createConfirmedUser();
      const context = await browser.newContext({ baseURL: e2e.app.url });
      await e2e.seedSession(context, user);
      const { page, problems } = await openPage(context);
      const origins = new Set<string>();
      page.on('request', (request) => {
        origins.add(new URL(request.url()).origin);
      });
      await page.goto('/');
      await page.goto('/dashboard/settings');
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      await page.waitForTimeout(500);
      expect([...origins]).toEqual([e2e.app.url]);
      expect(problems.errors).toEqual([]);
      await context.close();
    } finally {
      await e2e.close();
    }
  });

  // One app with a key, and its stand-in PostHog, for the two tests below.
  describe('with a PostHog key', () => {
    let posthog: Awaited<ReturnType<typeof startRequestRecorder>>;
    let e2e: E2eApp;
    beforeAll(async () => {
      posthog = await startRequestRecorder();
      e2e = await startE2eApp({ POSTHOG_KEY: 'phc_test_key', POSTHOG_HOST: posthog.url });
    });
    afterAll(async () => {
      await e2e?.close();
      await posthog?.close();
    });

    test('tokens in page URLs never reach PostHog', async () => {
      // PostHog sends no events from an automated or headless browser (navigator.webdriver, a
      // "HeadlessChrome" user agent or client-hint brand); this page is to look like a person's.
      const userAgent = (
        await browser.newBrowserCDPSession().then(async (cdp) => {
          const version = await cdp.send('Browser.getVersion');
          await cdp.detach();
          return version.userAgent;
        })
      ).replace('HeadlessChrome', 'Chrome');
      const context = await browser.newContext({ baseURL: e2e.app.url, userAgent });
      await context.addInitScript(() => {
        Object.defineProperty(Navigator.prototype, 'webdriver', { get: () => false });
        // The headless shell names itself in the client hints' brands as well.
        type Brand = { brand: string; version: string };
        const hints = (navigator as unknown as { userAgentData?: { brands: Brand[] } })
          .userAgentData;
        if (hints) {
          const brands = hints.brands.map((b) => ({
            ...b,
            brand: b.brand.replace('HeadlessChrome', 'Chrome'),
          }));
          Object.defineProperty(Object.getPrototypeOf(hints), 'brands', { get: () => brands });
        }
      });
      const { page } = await openPage(context);
      const secret = 'SECRETunsubscribeTOKEN.0123456789abcdefghij';
      await page.goto(`/unsubscribe?token=${secret}&utm_source=email`);
      await page.getByRole('heading', { name: 'Stop alert emails?' }).waitFor();
      const pageview = () =>
        posthog.requests.find(
          (r) => r.body.includes('$pageview') && r.body.includes('/unsubscribe'),
        );
      await expect.poll(() => Boolean(pageview()), { timeout: 20_000 }).toBe(true);
      // The page view is there, with the URL's other parts, but not the token.
      expect(pageview()?.body).toContain('utm_source=email');
      const leaks = posthog.requests.filter(
        (r) => r.body.includes(secret) || r.query.toString().includes(secret),
      );
      expect(leaks.map((r) => r.path)).toEqual([]);
      await context.close();
    });

    test('with a key, PostHog is initialised from /api/config and identifies the user by sub and email', async () => {
      // Only what this test's page sends counts (the recorder heard the test above as well).
      const before = posthog.requests.length;
      const sent = () => posthog.requests.slice(before);
      const user = await e2e.createConfirmedUser();
      const { IdToken } = await e2e.signIn(user);
      const sub = JSON.parse(Buffer.from(IdToken.split('.')[1] ?? '', 'base64url').toString('utf8'))
        .sub as string;
      const context = await browser.newContext({ baseURL: e2e.app.url });
      await e2e.seedSession(context, user);
      // The recorder is a stand-in: PostHog's optional extras it cannot serve may log errors.
      const { page } = await openPage(context);
      await page.goto('/dashboard/monitors');
      await page.getByTestId('sidebar').waitFor();
      // PostHog drops *events* from automated browsers (navigator.webdriver), but not the flags
      // request it makes right after identify: as `sub`, with the email as a person property.
      const identified = () =>
        sent().find((r) => {
          if (!r.path.startsWith('/flags')) return false;
          const body = JSON.parse(r.body || '{}') as {
            distinct_id?: string;
            person_properties?: { email?: string };
          };
          return body.distinct_id === sub && body.person_properties?.email === user.email;
        });
      await expect.poll(() => Boolean(identified()), { timeout: 20_000 }).toBe(true);
      expect(
        sent().some(
          (r) => r.body.includes('phc_test_key') || r.query.toString().includes('phc_test_key'),
        ),
      ).toBe(true);
      await context.close();
    });
  });
});
