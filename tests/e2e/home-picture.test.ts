import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { LARGE_IMAGE_WIDTHS } from '../../src/shared/responsive-images.ts';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// The home page's picture of the Alerts page: built at build time in AVIF, WebP and JPEG at the
// large widths, chosen by the browser through srcset/sizes.
describe.runIf(availability.run)('the home page picture', () => {
  let browser: Browser;
  let app: TestApp;
  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
    app = await startTestApp({ webRoot: path.join(ROOT, 'dist', 'web') });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('the prerendered page offers AVIF and WebP with a JPEG fallback at every width up to the source', async () => {
    const html = await (await fetch(`${app.url}/`)).text();
    expect(html).toContain('<picture>');
    expect(html).toContain('type="image/avif"');
    expect(html).toContain('type="image/webp"');
    for (const width of LARGE_IMAGE_WIDTHS.filter((w) => w <= 2560)) {
      expect(html).toContain(`/images/alerts-page-${width}.avif ${width}w`);
      const image = await fetch(`${app.url}/images/alerts-page-${width}.avif`);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/avif');
    }
    // Never upscaled: the source is 2560 px wide.
    expect(html).not.toContain('alerts-page-3840');
    expect(
      (await fetch(`${app.url}/images/alerts-page-1200.jpg`)).headers.get('content-type'),
    ).toBe('image/jpeg');
  });

  for (const [name, viewport, deviceScaleFactor, widest] of [
    ['a 390 px phone at 2×', { width: 390, height: 844 }, 2, 828],
    ['a 1280 px desktop at 1×', { width: 1280, height: 900 }, 1, 1200],
  ] as const) {
    test(`${name} downloads one AVIF no wider than ${widest} px`, async () => {
      const context = await browser.newContext({ baseURL: app.url, viewport, deviceScaleFactor });
      const { page, problems } = await openPage(context);
      const images: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/images/')) images.push(new URL(request.url()).pathname);
      });
      await page.goto('/');
      const picture = page.getByTestId('product-picture');
      await picture.scrollIntoViewIfNeeded();
      await expect
        .poll(() => picture.evaluate((img) => (img as { complete: boolean }).complete), UI_WAIT)
        .toBe(true);
      expect(images).toHaveLength(1);
      const [file] = images;
      const width = Number(/-(\d+)\.avif$/.exec(file ?? '')?.[1]);
      expect(width).toBeGreaterThan(0);
      expect(width).toBeLessThanOrEqual(widest);
      expect(problems.errors).toEqual([]);
      await context.close();
    });
  }
});
