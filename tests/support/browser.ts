import { existsSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  // The headless shell first: the same engine without the desktop browser around it, at about
  // half the CPU for the same pages (decision 0046).
  '/usr/bin/chromium-headless-shell',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

export const INSTALL_HINT =
  'No Chromium found for the browser suite. Install it with "sudo apt-get install -y chromium-headless-shell" (Debian/Ubuntu) or set CHROMIUM_PATH.';

export function findChromium(
  candidates: readonly (string | undefined)[] = CANDIDATES,
): string | null {
  for (const candidate of candidates) if (candidate && existsSync(candidate)) return candidate;
  return null;
}

/**
 * Whether the browser suite can run. Without a browser it is skipped with a visible warning,
 * except under CI=true, where a missing browser is a failure.
 */
export function browserAvailability(
  candidates: readonly (string | undefined)[] = CANDIDATES,
  env: Record<string, string | undefined> = process.env,
): { run: true; path: string } | { run: false } {
  const path = findChromium(candidates);
  if (path) return { run: true, path };
  if (env.CI === 'true' || env.CI === '1') {
    throw new Error(`${INSTALL_HINT} (CI=true: the browser suite may not be skipped).`);
  }
  console.warn(`\n⚠ SKIPPING THE BROWSER SUITE. ${INSTALL_HINT}\n`);
  return { run: false };
}

/** The machine has no network beyond loopback: keep Chromium from reaching out at all. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export async function launchBrowser(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}

/**
 * For `expect.poll` on what a page shows: its default second is too short for a page that waits
 * on the API, on a machine running other test files beside this one.
 */
export const UI_WAIT = { timeout: 15_000 } as const;

export type PageProblems = { errors: string[] };

/**
 * A page that records console errors and uncaught exceptions: a test asserts they stay empty,
 * so an unexpected error in the app fails the test.
 */
export async function openPage(
  context: BrowserContext,
  allow: RegExp[] = [],
): Promise<{ page: Page; problems: PageProblems }> {
  const page = await context.newPage();
  const problems: PageProblems = { errors: [] };
  const allowed = (text: string) => allow.some((pattern) => pattern.test(text));
  page.on('console', (message) => {
    if (message.type() === 'error' && !allowed(message.text()))
      problems.errors.push(message.text());
  });
  page.on('pageerror', (error) => {
    if (!allowed(error.message)) problems.errors.push(`${error.name}: ${error.message}`);
  });
  return { page, problems };
}

/**
 * Whether this run photographs pages into docs/screenshots (`npm run screenshots`). A test run
 * leaves the tracked pictures alone, and saves the encoding.
 */
export const TAKE_SCREENSHOTS = process.env.EARSHOT_SCREENSHOTS === '1';
