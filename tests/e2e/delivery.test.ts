import { describe, expect, test } from 'vitest';
import { browserAvailability, openPage } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import type { E2eUser } from '../support/e2e-app.ts';

const availability = browserAvailability();

describe.runIf(availability.run)('email alerts in Chromium', () => {
  const suite = useBrowserSuite(availability.run ? availability.path : '');

  async function settingsPage(user: E2eUser, timezoneId?: string) {
    const context = await suite.newContext({
      viewport: { width: 1280, height: 900 },
      ...(timezoneId ? { timezoneId } : {}),
    });
    await suite.e2e.seedSession(context, user);
    const opened = await openPage(context);
    await opened.page.goto('/dashboard/settings');
    await opened.page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    return opened;
  }

  async function alertsMode(user: E2eUser): Promise<string> {
    const { AccessToken } = await suite.e2e.signIn(user);
    const response = await fetch(`${suite.e2e.app.url}/api/user`, {
      headers: { Authorization: AccessToken },
    });
    return ((await response.json()) as { emailAlerts: string }).emailAlerts;
  }

  test('the time zone is filled in from the browser; the choices are saved and shown after a reload', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page, problems } = await settingsPage(user, 'Asia/Tokyo');
    const zone = page.getByLabel('Time zone', { exact: true });
    expect(await zone.inputValue()).toBe('Asia/Tokyo');
    await page.getByText('Filled in from this device').waitFor();
    await page.getByLabel('Hourly digest').check();
    await page.getByRole('button', { name: 'Save email alerts' }).click();
    await page.getByText('Email alerts saved.').waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    expect(await page.getByLabel('Hourly digest').isChecked()).toBe(true);
    expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).toBe('Asia/Tokyo');
    expect(await page.getByText('Filled in from this device').count()).toBe(0);
    expect(problems.errors).toEqual([]);
  });

  test('the unsubscribe link of a received email turns alerts off and says so', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page, problems } = await settingsPage(user);
    await page.getByRole('button', { name: 'Send me a test email' }).click();
    await page.getByText(`Test email sent to ${user.email}`).waitFor();
    const mail = await suite.e2e.smtp.waitForMail(user.email, 15_000);
    const link = /(http:\/\/\S+\/unsubscribe\?token=[A-Za-z0-9_.%-]+)/.exec(mail.text)?.[1];
    expect(link).toBeTruthy();
    expect(await alertsMode(user)).toBe('instant');

    // Opened from the email: no session in this browser.
    // The damaged link below answers 400, which the browser logs: that one error is expected.
    const visitor = await openPage(await suite.newContext(), [/status of 400/]);
    await visitor.page.goto(link ?? '');
    await visitor.page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    await visitor.page.getByRole('link', { name: /Turn alerts back on/ }).waitFor();
    expect(await alertsMode(user)).toBe('off');

    // The way back: Settings shows Off, and alerts can be turned on again.
    await page.reload();
    await page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    expect(await page.getByLabel('Off').isChecked()).toBe(true);

    // A damaged link changes nothing and says so.
    await visitor.page.goto(`${(link ?? '').slice(0, -3)}xyz`);
    await visitor.page
      .getByRole('heading', { name: 'This unsubscribe link does not work' })
      .waitFor();
    await visitor.page.goto('/unsubscribe');
    await visitor.page
      .getByRole('heading', { name: 'This unsubscribe link is incomplete' })
      .waitFor();
    expect(problems.errors).toEqual([]);
    expect(visitor.problems.errors).toEqual([]);
  });
});
