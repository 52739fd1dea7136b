import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadUnsubscribeTokens } from '../../src/delivery/unsubscribe-token.ts';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { deliverItems, testItem } from '../support/feed.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const GAME = [
  'Rust server wipe tonight, looking for a clan',
  'Best Rust base design after the wipe',
  'Rust console server lag again',
  'Rust raid on our base at the wipe',
];
const LANGUAGE = [
  'Rust borrow checker explained for beginners',
  'Async Rust: pinning and futures',
  'Rust compiler errors got much better',
  'Writing a parser in Rust with nom',
];

// Relevance on a phone-sized screen: rate alerts, watch the others' scores and reasons follow,
// set a threshold in the monitor form and apply the query coach's suggestion.
describe.runIf(availability.run)('relevance, in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let context: BrowserContext;

  beforeAll(async () => {
    browser = await connectBrowser(availability.run ? availability.path : '');
    app = await startTestApp({ webRoot: path.join(ROOT, 'dist', 'web') });
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
  });

  test('rate alerts, see scores change, set a threshold, apply a coach suggestion', async () => {
    const user = await app.createUser({ givenName: 'Ada' });
    const tokens = await app.signIn(user);
    const token = tokens.AccessToken;
    await app.api('/api/user', { token, method: 'POST', body: {} });
    const made = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { name: 'Rust', query: 'rust' },
    });
    expect(made.status).toBe(201);
    await deliverItems(app, [
      ...GAME.map((title) => testItem({ source: 'reddit', community: 'playrust', title })),
      ...LANGUAGE.map((title) => testItem({ source: 'reddit', community: 'rust', title })),
    ]);

    context = await browser.newContext({ baseURL: app.url, viewport: { width: 390, height: 844 } });
    await context.addInitScript(
      (value) => {
        if (!localStorage.getItem('token')) localStorage.setItem('token', value);
      },
      JSON.stringify({
        AccessToken: token,
        IdToken: tokens.IdToken,
        RefreshToken: tokens.RefreshToken,
      }),
    );
    const { page, problems } = await openPage(context);
    await page.goto('/dashboard/alerts');
    await page.getByTestId('match-card').first().waitFor();
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(8);
    const card = (title: string) => page.getByTestId('match-card').filter({ hasText: title });
    const last = GAME[3] ?? '';
    // Before any rating: the general signals.
    expect(await card(last).getByTestId('match-relevance').textContent()).toContain(
      'the words are in the title',
    );

    for (const title of GAME.slice(0, 2)) {
      await page.getByRole('button', { name: `Not relevant: ${title}` }).click();
      await page.getByRole('button', { name: `Not relevant: ${title}`, pressed: true }).waitFor();
    }
    for (const title of LANGUAGE.slice(0, 2)) {
      await page.getByRole('button', { name: `Relevant: ${title}`, exact: true }).click();
      await page
        .getByRole('button', { name: `Relevant: ${title}`, exact: true, pressed: true })
        .waitFor();
    }
    // The unrated game post is scored again by what was rated, and says why.
    await card(last)
      .getByTestId('match-relevance-reasons')
      .getByText(/r\/playrust: in 2 you marked not relevant/)
      .waitFor();

    // The monitor form: a threshold, what it would keep of the rated alerts, the coach.
    await page.goto('/dashboard/monitors');
    await page.getByRole('button', { name: 'Edit Rust' }).click();
    const threshold = page.getByLabel('Relevance threshold, % (optional)');
    await threshold.fill('50');
    await page
      .getByTestId('threshold-effect')
      .getByText('keeps 2 of 2 relevant and drops 2 of 2 not relevant')
      .waitFor();
    const coach = page.getByRole('region', { name: 'Query coach' });
    await coach.getByText('removes 2 of your 2 not relevant, 0 of 2 relevant').first().waitFor();
    await coach.getByRole('button', { name: 'Apply -subreddit:playrust' }).click();
    await page.getByText('Query updated').waitFor();
    await expect
      .poll(() => page.getByRole('textbox', { name: 'Query' }).inputValue(), UI_WAIT)
      .toBe('(rust) -subreddit:playrust');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Monitor saved').waitFor();

    // Held back from email and webhooks, the game posts wait under Low relevance.
    await page.goto('/dashboard/alerts');
    const toggle = page.getByTestId('low-relevance-toggle');
    await toggle.getByText('Low relevance (4)').waitFor();
    await toggle.click();
    await page.getByTestId('match-card').first().waitFor();
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(4);
    for (const title of GAME) await card(title).waitFor();

    // An alert email's "Not relevant" link: the page asks first, then rates, then undoes.
    const feed = (await (await app.api('/api/matches', { token })).json()) as {
      items: { id: string; title: string }[];
    };
    const unrated = feed.items.find((m) => m.title === LANGUAGE[3]);
    const signer = await loadUnsubscribeTokens(app.database.db, app.config.UNSUBSCRIBE_SECRET);
    const link = signer.signRating(unrated?.id ?? '', 'irrelevant');
    await page.goto(`/feedback?token=${encodeURIComponent(link)}`);
    await page.getByRole('heading', { name: 'Mark as not relevant?' }).waitFor();
    await page.getByText(LANGUAGE[3] ?? '').waitFor();
    await page.getByRole('button', { name: 'Mark as not relevant' }).click();
    await page.getByRole('heading', { name: 'Marked as not relevant' }).waitFor();
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('heading', { name: 'Rating taken back' }).waitFor();
    expect(problems.errors).toEqual([]);
  });
});
