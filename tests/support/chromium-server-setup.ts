import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { browserAvailability, CHROMIUM_ARGS } from './browser.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The shared Chromium's address (`chromium.connect`), when this global setup runs. */
    chromiumWsEndpoint: string;
  }
}

/**
 * Global setup of the browser suite: one Chromium for the whole run, which every test file
 * connects to (browser-suite.ts, `connectBrowser`) and opens its own contexts in, instead of
 * launching one of its own (a second or more each on a busy machine).
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const availability = browserAvailability();
  if (!availability.run) return;
  const server = await chromium.launchServer({
    executablePath: availability.path,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return () => server.close();
}
