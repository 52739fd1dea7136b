import { afterAll, describe, expect, test } from 'vitest';
import { createDataDir, freePort } from '../support/app-process.ts';
import { browserAvailability, openPage } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type EntryProcess, startEntry } from '../support/entry-process.ts';

// `npm run demo` as a newcomer meets it: start it, sign in with what it prints, and see matches
// arrive on the Alerts page within a minute.

const availability = browserAvailability();

describe.runIf(availability.run)('npm run demo in Chromium', () => {
  let demo: EntryProcess | null = null;
  afterAll(async () => {
    await demo?.stop();
  });

  test('the printed account signs in and sees matches within a minute', async () => {
    const port = await freePort();
    const started = Date.now();
    demo = startEntry('scripts/demo.ts', {
      PORT: String(port),
      DATA_DIR: createDataDir(),
      LOG_LEVEL: 'warn',
    });
    await demo.waitFor(/password: (\S+)/u, 60_000);
    const email = /e-mail: +(\S+)/u.exec(demo.output())?.[1] ?? '';
    const password = /password: (\S+)/u.exec(demo.output())?.[1] ?? '';
    const login = /Sign in at (\S+)/u.exec(demo.output())?.[1] ?? '';
    expect(login).toBe(`http://127.0.0.1:${port}/account/login`);

    const browser = await connectBrowser(availability.run ? availability.path : '');
    try {
      const context = await browser.newContext({
        baseURL: `http://127.0.0.1:${port}`,
        viewport: { width: 1280, height: 900 },
      });
      const { page, problems } = await openPage(context);
      await page.goto('/account/login');
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password', { exact: true }).fill(password);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/dashboard\//u);
      // The feed shows what is there when the page opens, and later ones announce themselves (the
      // "N new" pill): open it again, once they have, until at least five matches are in.
      const cards = page.getByTestId('match-card');
      const loaded = cards.first().or(page.getByRole('heading', { name: 'Nothing heard yet' }));
      for (let tries = 0; ; tries++) {
        await page.goto('/dashboard/alerts');
        await page.getByRole('heading', { name: 'Alerts', exact: true }).waitFor();
        await loaded.waitFor();
        if ((await cards.count()) >= 5) break;
        expect(tries, 'five matches within a minute').toBeLessThan(30);
        await page.getByTestId('new-matches-pill').waitFor({ timeout: 60_000 });
      }
      expect(Date.now() - started).toBeLessThan(90_000);
      // Every replayed site is in the demo, the newest ones too.
      const status = (await page.getByTestId('source-status').textContent()) ?? '';
      expect(status).toMatch(/Hacker News: live/u);
      expect(status).toMatch(/Stack Overflow: (live|starting)/u);
      expect(status).toMatch(/Bluesky: (live|starting)/u);
      expect(problems.errors).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 180_000);
});
