import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { deliverItems } from '../support/feed.ts';
import { recordedHackerNewsItem } from '../support/replay-corpus.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const STORY = '‘It’s Mutilation’: The Police in Chile Are Blinding Protesters';

const recorded = recordedHackerNewsItem;

// The Alerts page with recorded Hacker News items: one card per post however many monitors
// caught it, title hits marked in the title, a comment named by its thread.
describe.runIf(availability.run)('what an alert shows, in Chromium', () => {
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

  test('a post two monitors caught is one card naming both, its title hits marked; a comment shows its thread', async () => {
    const user = await app.createUser({ givenName: 'Ada' });
    const tokens = await app.signIn(user);
    const token = tokens.AccessToken;
    await app.api('/api/user', { token, method: 'POST', body: {} });
    for (const [name, query] of [
      ['Chile', 'chile'],
      ['Police', 'police'],
      ['Xinjiang', 'uyghurs'],
    ]) {
      const made = await app.api('/api/monitors', { token, method: 'POST', body: { name, query } });
      expect(made.status).toBe(201);
    }
    await deliverItems(app, [recorded(21500569)]);
    await deliverItems(app, [recorded(21500829), recorded(21500985)]);

    context = await browser.newContext({
      baseURL: app.url,
      viewport: { width: 1280, height: 900 },
    });
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

    // Three matches, two items: two cards, and the badge counts two.
    await expect.poll(() => page.getByTestId('match-card').count(), UI_WAIT).toBe(2);
    await page.getByTestId('unread-count').getByText('2').waitFor();

    const post = page.getByTestId('match-card').filter({ hasText: 'Blinding Protesters' }).filter({
      hasNotText: 'on: ',
    });
    expect(await post.getByTestId('match-monitors').textContent()).toBe('Chile, Police');
    const title = post.getByTestId('match-title-link');
    expect(await title.textContent()).toBe(STORY);
    expect(await title.getByTestId('hit').allTextContents()).toEqual(['Police', 'Chile']);
    expect(await post.getByTestId('match-hit-fields').textContent()).toBe(
      'hit in the title and URL',
    );
    // The snippet is the URL, where "chile" hit; never the title again.
    expect(await post.getByTestId('match-snippet').getByTestId('hit').allTextContents()).toEqual([
      'chile',
    ]);

    const comment = page.getByTestId('match-card').filter({ hasText: `on: ${STORY}` });
    expect(await comment.getByTestId('match-title-link').getAttribute('href')).toBe(
      'https://news.ycombinator.com/item?id=21500985',
    );
    expect(await comment.getByTestId('match-monitors').textContent()).toBe('Xinjiang');
    expect(await comment.getByTestId('match-snippet').getByTestId('hit').allTextContents()).toEqual(
      ['Uyghurs'],
    );

    // Reading the card reads both of its matches: the badge goes to one.
    await page.getByRole('button', { name: `Mark read: ${STORY}` }).click();
    await page.getByTestId('unread-count').getByText('1').waitFor();
    const unread = await app.api('/api/matches?unread=true', { token });
    expect(((await unread.json()) as { items: unknown[] }).items).toHaveLength(1);
    expect(problems.errors).toEqual([]);
  });

  test('the intent chips filter the feed, the cards show their hints and take a correction, the chart splits by tone', async () => {
    const user = await app.createUser({ givenName: 'Grace' });
    const tokens = await app.signIn(user);
    const token = tokens.AccessToken;
    await app.api('/api/user', { token, method: 'POST', body: {} });
    const made = await app.api('/api/monitors', {
      token,
      method: 'POST',
      body: { name: 'HN', query: 'hn site:hackernews' },
    });
    expect(made.status).toBe(201);
    // Two "Ask HN" posts (questions) and a "Show HN" (a launch), recorded.
    await deliverItems(app, [recorded(121003), recorded(13159648), recorded(21301382)]);

    const signedIn = await browser.newContext({ baseURL: app.url });
    await signedIn.addInitScript(
      (value) => localStorage.setItem('token', value),
      JSON.stringify({
        AccessToken: token,
        IdToken: tokens.IdToken,
        RefreshToken: tokens.RefreshToken,
      }),
    );
    const { page, problems } = await openPage(signedIn);
    await page.goto('/dashboard/alerts');
    const cards = page.getByTestId('match-card');
    await expect.poll(() => cards.count(), UI_WAIT).toBe(3);
    const chips = page.getByTestId('signal-chips');

    await chips.getByRole('button', { name: 'Launch' }).click();
    await expect.poll(() => cards.count(), UI_WAIT).toBe(1);
    expect(await cards.first().getByTestId('match-title-link').textContent()).toContain(
      'Show HN: Pixibot',
    );
    expect(await cards.first().getByTestId('match-signals').textContent()).toContain('Launch');
    expect(new URL(page.url()).searchParams.get('intent')).toBe('launch');

    await chips.getByRole('button', { name: 'Question' }).click();
    await expect.poll(() => cards.count(), UI_WAIT).toBe(2);
    expect(await chips.getByRole('button', { name: 'Question' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
    // Pressed again, the chip lets go: every alert again.
    await chips.getByRole('button', { name: 'Question' }).click();
    await expect.poll(() => cards.count(), UI_WAIT).toBe(3);

    // A wrong or missing hint is corrected on the card.
    const show = cards.filter({ hasText: 'Show HN: Pixibot' });
    await show.getByRole('button', { name: /^Correct the hints/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Correct the hints' });
    await dialog.getByRole('checkbox', { name: 'Praise' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await expect
      .poll(() => show.getByTestId('match-signals').textContent(), UI_WAIT)
      .toBe('Hints, as you corrected them:PraiseLaunch');

    await page.getByRole('button', { name: 'By tone' }).click();
    await page.getByRole('button', { name: 'By tone', pressed: true }).waitFor();
    expect(problems.errors).toEqual([]);
    await signedIn.close();
  });
});
