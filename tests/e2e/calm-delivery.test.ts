import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { NormalisedItem, NormaliseResult } from '../../src/sources/normalised-item.ts';
import { normaliseRedditListing } from '../../src/sources/reddit/normalise.ts';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type DeliveryHarness, startDeliveryHarness } from '../support/delivery-harness.ts';

const availability = browserAvailability();
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Calm delivery in Chromium (issue 25), on the recorded Reddit thread n49rw: its matching
 * comments are one card in the feed, expandable; the email that the SMTP sink received carries
 * a "mute <author>" link that works without signing in, shows the monitor's new exclusion and
 * can be undone.
 */
describe.runIf(availability.run)(
  'one alert per conversation and mute from the email, in Chromium',
  () => {
    let browser: Browser;
    let h: DeliveryHarness;
    beforeAll(async () => {
      browser = await connectBrowser(availability.run ? availability.path : '');
      h = await startDeliveryHarness({ webRoot: path.join(ROOT, 'dist', 'web') });
    });
    afterAll(async () => {
      await browser?.close();
      await h?.close();
    });

    test('a thread’s matching comments are one expandable card; its email’s mute link mutes the author, then undoes', async () => {
      const { app } = h;
      const user = await app.createUser({ givenName: 'Ada' });
      const tokens = await app.signIn(user);
      const token = tokens.AccessToken;
      await app.api('/api/user', { token, method: 'POST', body: {} });
      const made = await app.api('/api/monitors', {
        token,
        method: 'POST',
        body: { name: 'Reddit', query: 'reddit' },
      });
      const monitor = (await made.json()) as { id: string };
      const results: NormaliseResult[] = normaliseRedditListing(
        JSON.parse(
          readFileSync(
            new URL('../fixtures/recorded/reddit-thread-n49rw-2016-03-22.json', import.meta.url),
            'utf8',
          ),
        ),
      );
      // The post first (it does not match): the comments take their thread's title from it.
      const [post] = results.flatMap((result) =>
        result.status === 'item' && result.item.kind === 'post' ? [result.item] : [],
      );
      await h.publishItems([post as NormalisedItem]);
      const comments = results
        .flatMap((result) => (result.status === 'item' ? [result.item] : []))
        .filter(
          (item): item is NormalisedItem => item.kind === 'comment' && /reddit/i.test(item.body),
        )
        .filter((item) => item.author !== null && /^[A-Za-z0-9_-]+$/.test(item.author))
        .slice(0, 12);
      // The query's word as the matcher reads it (not inside a link or a longer word) hits most.
      const count = await h.publishItems(comments);
      expect(count).toBeGreaterThanOrEqual(5);

      const context = await browser.newContext({
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
      const card = page.getByTestId('match-card');
      await card.first().waitFor();
      await expect.poll(() => card.count(), UI_WAIT).toBe(1);
      expect(await card.getByTestId('match-title-link').textContent()).toBe(
        `${count} new comments in “We're back”`,
      );
      expect(await card.getByTestId('match-title-link').getAttribute('href')).toBe(
        'https://www.reddit.com/comments/n49rw/',
      );
      await page.getByTestId('unread-count').getByText('1').waitFor();
      expect(
        await card
          .getByTestId('match-thread-item')
          .isVisible()
          .catch(() => false),
      ).toBe(false);
      await card.getByText(`Show all ${count}`).click();
      await expect.poll(() => card.getByTestId('match-thread-item').count(), UI_WAIT).toBe(count);
      expect(await card.getByTestId('match-thread-item').first().isVisible()).toBe(true);

      // Follow the thread from the card: its later comments come as alerts for 7 days.
      await card.getByRole('button', { name: /^Follow thread: / }).click();
      await page.getByText('Following this thread for 7 days').waitFor();

      // The email, through the SMTP sink: one entry, with its mute links.
      await h.pass();
      h.clock.advance(60_000);
      await h.pass();
      const smtp = app.smtp;
      if (!smtp) throw new Error('no SMTP sink');
      const mail = await smtp.waitForMail(user.email, 15_000);
      expect(mail.text.split('\n').filter((line) => line.startsWith('* '))).toEqual([
        `* ${count} new comments in “We're back”`,
      ]);
      const author = comments[0]?.author ?? '';
      const link = new RegExp(`^ {2}Mute ${author}: (\\S+)$`, 'm').exec(mail.text)?.[1] ?? '';
      expect(link).toContain('/mute?token=');

      // Opened from the email, in a browser without a session.
      const visitor = await openPage(await browser.newContext({ baseURL: app.url }));
      await visitor.page.goto(link);
      await visitor.page.getByRole('heading', { name: `Mute ${author} (Reddit)?` }).waitFor();
      expect(visitor.page.url()).not.toContain('token=');
      const query = async () =>
        (
          (await (await app.api(`/api/monitors/${monitor.id}`, { token })).json()) as {
            query: string;
          }
        ).query;
      expect(await query()).toBe('reddit');
      await visitor.page.getByRole('button', { name: `Mute ${author} (Reddit)` }).click();
      await visitor.page.getByRole('heading', { name: 'Muted' }).waitFor();
      expect(await visitor.page.getByTestId('mute-query').textContent()).toBe(
        `reddit -author:${author}`,
      );
      expect(await query()).toBe(`reddit -author:${author}`);
      await visitor.page.getByRole('button', { name: 'Undo' }).click();
      await visitor.page.getByRole('heading', { name: 'Undone' }).waitFor();
      expect(await query()).toBe('reddit');
      expect(problems.errors).toEqual([]);
      expect(visitor.problems.errors).toEqual([]);
    });
  },
);
