import type { Browser, BrowserContext, BrowserContextOptions } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser.ts';
import { type E2eApp, startE2eApp } from './e2e-app.ts';

export type BrowserSuite = {
  readonly browser: Browser;
  readonly e2e: E2eApp;
  /** A fresh context on the suite's app (or `app`), closed after the suite. */
  newContext(options?: BrowserContextOptions & { app?: E2eApp }): Promise<BrowserContext>;
};

/**
 * For a describe block of browser tests: one Chromium and one real app process (with its SMTP
 * sink) for the whole block, every context it opens closed at the end.
 */
export function useBrowserSuite(
  chromiumPath: string,
  env: Record<string, string> = {},
): BrowserSuite {
  let browser: Browser | undefined;
  let e2e: E2eApp | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser(chromiumPath);
    e2e = await startE2eApp(env);
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await e2e?.close();
  });
  const ready = <T>(value: T | undefined, what: string): T => {
    if (!value)
      throw new Error(`The browser suite's ${what} is not started yet (use it inside a test).`);
    return value;
  };
  return {
    get browser() {
      return ready(browser, 'browser');
    },
    get e2e() {
      return ready(e2e, 'app');
    },
    async newContext({ app, ...options } = {}) {
      const context = await ready(browser, 'browser').newContext({
        baseURL: (app ?? ready(e2e, 'app')).app.url,
        ...options,
      });
      contexts.push(context);
      return context;
    },
  };
}
