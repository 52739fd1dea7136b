import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
} from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchBrowser } from './browser.ts';
import type {} from './chromium-server-setup.ts';
import { type E2eApp, type E2eAppOptions, startE2eApp } from './e2e-app.ts';

export type BrowserSuite = {
  readonly browser: Browser;
  readonly e2e: E2eApp;
  /** A fresh context on the suite's app (or `app`), closed after the suite. */
  newContext(options?: BrowserContextOptions & { app?: E2eApp }): Promise<BrowserContext>;
};

/**
 * The run's shared Chromium (chromium-server-setup.ts) when the project starts one, else a
 * Chromium of this file's own. Either way `close()` ends what this file opened: on the shared
 * one, its connection and every context made through it.
 */
export async function connectBrowser(chromiumPath: string): Promise<Browser> {
  const endpoint: string | undefined = inject('chromiumWsEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchBrowser(chromiumPath);
}

/**
 * For a describe block of browser tests: one Chromium (connectBrowser) and one real app process
 * (with its SMTP sink) for the whole block, every context it opens closed at the end. The app is
 * startE2eApp's: with the default configuration, the one the worker's files share.
 */
export function useBrowserSuite(
  chromiumPath: string,
  env: Record<string, string> = {},
  options: E2eAppOptions = {},
): BrowserSuite {
  let browser: Browser | undefined;
  let e2e: E2eApp | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await connectBrowser(chromiumPath);
    e2e = await startE2eApp(env, options);
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
