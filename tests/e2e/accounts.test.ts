import type { BrowserContext, Page, Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import { type E2eApp, startE2eApp, waitUntilExpired } from '../support/e2e-app.ts';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';

const availability = browserAvailability();
const VIEWPORT = { width: 1280, height: 800 };
/** The access-token lifetime of the app used for the refresh test: the shortest allowed, waited out. */
const SHORT_TTL_SECONDS = 5;

type StoredRecord = { AccessToken: string; RefreshToken?: string; IdToken: string };

/** The stored session as the browser holds it, with no page of the app open. */
async function storedRecordIn(context: BrowserContext): Promise<StoredRecord | null> {
  const { origins } = await context.storageState();
  const raw = origins
    .flatMap((origin) => origin.localStorage)
    .find((item) => item.name === 'token');
  return raw ? (JSON.parse(raw.value) as StoredRecord) : null;
}

async function storedRecord(page: Page): Promise<StoredRecord | null> {
  const raw = await page.evaluate(() => localStorage.getItem('token'));
  return raw ? (JSON.parse(raw) as StoredRecord) : null;
}

async function logIn(page: Page, email: string, password: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

describe.runIf(availability.run)('accounts in Chromium', () => {
  const suite = useBrowserSuite(availability.run ? availability.path : '');

  async function newPage(app?: E2eApp) {
    return openPage(await suite.newContext({ viewport: VIEWPORT, ...(app ? { app } : {}) }));
  }

  test('a new user signs up, confirms with the emailed code, signs in, stays signed in and logs out', async () => {
    const { page, problems } = await newPage();
    const email = uniqueEmail('newcomer');
    await page.goto('/');
    await page.getByRole('link', { name: 'Sign up free' }).click();
    await page.waitForURL(/\/account\/signup$/);
    await page.getByLabel('First name').waitFor();
    await page.getByLabel('First name').fill('Katherine');
    await page.getByLabel('Last name').fill('Johnson');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();

    await page.waitForURL(/\/account\/confirm\?email=/);
    await page
      .getByTestId('form-notice')
      .getByText(/6-digit code/)
      .waitFor();
    const mail = await suite.e2e.smtp.waitForMail(email);
    expect(mail.subject).toMatch(/verification code/i);
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1];
    expect(code).toMatch(/^\d{6}$/);
    await page.getByLabel('Code').fill(code ?? '');
    await page.getByRole('button', { name: 'Confirm email' }).click();

    await page.waitForURL(/\/account\/login\?email=/);
    await page
      .getByTestId('form-notice')
      .getByText(/is confirmed/)
      .waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(email);
    // Nobody to welcome back: the account is a minute old.
    expect(await page.locator('main').textContent()).toContain('Your account is ready');
    expect(await page.locator('main').textContent()).not.toContain('Welcome back');
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();

    await page.waitForURL(/\/dashboard\/monitors$/);
    await expect
      .poll(() => page.getByTestId('header-user').textContent(), UI_WAIT)
      .toContain('Katherine');
    const record = await storedRecord(page);
    expect(record && Object.keys(record).sort()).toEqual([
      'AccessToken',
      'IdToken',
      'RefreshToken',
    ]);

    await page.reload();
    await page.getByTestId('header-user').waitFor();
    expect(await page.getByTestId('header-user').textContent()).toContain('Katherine');
    expect(new URL(page.url()).pathname).toBe('/dashboard/monitors');

    await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Katherine');

    await page.getByTestId('sidebar').getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(/\/account\/login$/);
    expect(await storedRecord(page)).toBeNull();
    expect(problems.errors).toEqual([]);
  });

  test('Log Out revokes the refresh token at the identity service', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const context = await suite.newContext({ viewport: VIEWPORT });
    await suite.e2e.seedSession(context, user);
    const { page, problems } = await openPage(context);
    await page.goto('/dashboard/monitors');
    await page.getByTestId('header-user').waitFor();
    const record = await storedRecord(page);
    expect(record?.RefreshToken).toBeTruthy();
    expect(await suite.e2e.refresh(record?.RefreshToken ?? '')).toBe('ok');

    await page.getByTestId('sidebar').getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(/\/account\/login$/);
    expect(await storedRecord(page)).toBeNull();
    // Best effort, not waited for by the page: the revocation lands just after.
    await expect
      .poll(() => suite.e2e.refresh(record?.RefreshToken ?? ''), { timeout: 5000 })
      .toBe('NotAuthorizedException: Refresh Token has been revoked');
    expect(problems.errors).toEqual([]);
  });

  test('after logging in, redirectTo leads only to a page of this site, without an error', async () => {
    const user = await suite.e2e.createConfirmedUser();
    for (const [redirectTo, lands] of [
      ['/\t/evil.example', /\/dashboard\/monitors$/],
      ['/\\evil.example', /\/dashboard\/monitors$/],
      ['/.//evil.example', /\/dashboard\/monitors$/],
      ['/dashboard/settings', /\/dashboard\/settings$/],
    ] as const) {
      const { page, problems } = await newPage();
      await page.goto(`/account/login?redirectTo=${encodeURIComponent(redirectTo)}`);
      await logIn(page, user.email, user.password);
      await page.waitForURL(lands);
      expect(new URL(page.url()).origin, redirectTo).toBe(suite.e2e.app.url);
      expect(problems.errors, redirectTo).toEqual([]);
      await page.context().close();
    }
  });

  test('signed out everywhere (GlobalSignOut), the next change ends the session at the login page', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const context = await suite.newContext({ viewport: VIEWPORT });
    await suite.e2e.seedSession(context, user);
    const { page } = await openPage(context, [/status of 40[01]/]);
    await page.goto('/dashboard/settings');
    await page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    const record = await storedRecord(page);
    await suite.e2e.globalSignOut(record?.AccessToken ?? '');

    // The API refuses the token, the refresh is refused too: the auth gate sends the user to log in.
    await page.getByLabel('Daily digest').check();
    await page.getByRole('button', { name: 'Save email alerts' }).click();
    await page.waitForURL(/\/account\/login\?redirectTo=/);
    expect(await storedRecord(page)).toBeNull();
  });

  test('an expired access token is refreshed silently, on navigation and when the app is opened again', async () => {
    const shortLived = await startE2eApp({
      IDP_ACCESS_TOKEN_TTL_SECONDS: String(SHORT_TTL_SECONDS),
    });
    try {
      const user = await shortLived.createConfirmedUser({ givenName: 'Refresh' });
      const { page, problems } = await newPage(shortLived);
      // When each refresh went out. A refresh is needed only once the access token has expired,
      // and a fresh one lives SHORT_TTL_SECONDS, so two refreshes closer than that mean one was
      // needless (two calls at once refreshing twice, or a refresh of a valid token). On a busy
      // machine a page can outlive a fresh token and rightly refresh again: counted, not refused.
      // A refresh the page sent just before a reload, which the reload cut off, got the page no
      // token: the reloaded page rightly refreshes again at once. Only refreshes that were
      // answered count.
      const refreshes: number[] = [];
      const sent = new Map<Request, number>();
      const isRefresh = (request: Request) =>
        request.url().includes('/idp') && request.postData()?.includes('REFRESH_TOKEN_AUTH');
      page.on('request', (request) => {
        if (isRefresh(request)) sent.set(request, Date.now());
      });
      page.on('requestfinished', (request) => {
        const at = sent.get(request);
        sent.delete(request);
        if (at !== undefined) refreshes.push(at);
      });
      page.on('requestfailed', (request) => sent.delete(request));
      const expectNoNeedlessRefresh = async () => {
        await expect.poll(() => sent.size, { message: 'refreshes still in flight' }).toBe(0);
        refreshes.sort((a, b) => a - b);
        for (let i = 1; i < refreshes.length; i++) {
          const gap = (refreshes[i] ?? 0) - (refreshes[i - 1] ?? 0);
          expect(gap, `refresh ${i + 1} came ${gap} ms after the one before`).toBeGreaterThan(
            (SHORT_TTL_SECONDS - 1) * 1000,
          );
        }
      };
      await page.goto('/account/login');
      await logIn(page, user.email, user.password);
      await page.waitForURL(/\/dashboard\/monitors$/);
      const first = await storedRecord(page);

      await waitUntilExpired(first?.AccessToken);
      await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      expect(await page.getByLabel('First name').inputValue()).toBe('Refresh');
      const second = await storedRecord(page);
      expect(second?.AccessToken).not.toBe(first?.AccessToken);
      expect(second?.RefreshToken).toBe(first?.RefreshToken);
      await expectNoNeedlessRefresh();
      expect(refreshes.length).toBeGreaterThanOrEqual(1);
      expect(new URL(page.url()).pathname).toBe('/dashboard/settings');

      // The app loaded again with an expired token: REFRESHING_TOKEN, then the page, without a
      // detour via login. The app is left first, so that none of its own calls refreshes while
      // the test waits the newest token out (a reload then raced the page's polling).
      await page.goto('about:blank');
      await expectNoNeedlessRefresh();
      const left = await storedRecordIn(page.context());
      expect(left?.RefreshToken).toBe(first?.RefreshToken);
      await waitUntilExpired(left?.AccessToken);
      const loadedAt = Date.now();
      await page.goto('/dashboard/settings');
      await page.getByRole('heading', { name: 'Profile' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/dashboard/settings');
      await expectNoNeedlessRefresh();
      expect(refreshes.filter((at) => at >= loadedAt)).toHaveLength(1);
      expect(problems.errors).toEqual([]);
    } finally {
      await shortLived.close();
    }
  });

  test('a forgotten password is reset with the emailed code', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page, problems } = await newPage();
    await page.goto('/account/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/account\/forgot-password$/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: 'Send the code' }).click();

    await page.waitForURL(/\/account\/reset-password\?email=/);
    const code = await suite.e2e.smtp.nextCode(user.email);
    const newPassword = 'Brand-New-Pass-7';
    await page.getByLabel('Code').fill(code);
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Repeat the new password').fill(newPassword);
    await page.getByRole('button', { name: 'Set the new password' }).click();

    await page.waitForURL(/\/account\/login\?email=/);
    await page
      .getByTestId('form-notice')
      .getByText(/password is changed/)
      .waitFor();
    await logIn(page, user.email, user.password);
    expect(await page.getByTestId('password-error').textContent()).toMatch(
      /email or password is not right/,
    );
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard\/monitors$/);
    expect(problems.errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });

  test('sign-in explains a wrong password and leads an unconfirmed account to confirmation, whatever its password', async () => {
    const confirmed = await suite.e2e.createConfirmedUser();
    const unconfirmed = await suite.e2e.signUp();
    const { page } = await newPage();
    await page.goto('/account/login');

    await logIn(page, confirmed.email, 'Not-The-Password-1');
    const passwordError = page.getByTestId('password-error');
    await passwordError.waitFor();
    expect(await passwordError.textContent()).toBe(
      'The email or password is not right. Check both and try again.',
    );
    expect(new URL(page.url()).pathname).toBe('/account/login');
    expect(await storedRecord(page)).toBeNull();

    await logIn(page, unconfirmed.email, 'Not-The-Password-1');
    const formError = page.getByTestId('form-error');
    await formError.waitFor();
    expect(await formError.textContent()).toMatch(/not confirmed yet/);
    await formError.getByRole('link', { name: 'Confirm your email' }).click();
    await page.waitForURL(/\/account\/confirm\?email=/);
    // The confirmation page sends a fresh code at once; it confirms the account.
    await page.getByTestId('form-notice').waitFor();
    // The sign-up's code, then the fresh one (sent just after the page's request was answered).
    await suite.e2e.smtp.nextCode(unconfirmed.email);
    await page.getByLabel('Code').fill(await suite.e2e.smtp.nextCode(unconfirmed.email));
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL(/\/account\/login\?email=/);
  });

  test('sign-up explains a weak password and an email that is taken', async () => {
    const existing = await suite.e2e.createConfirmedUser();
    const { page } = await newPage();
    await page.goto('/account/signup');
    await page.getByLabel('First name').fill('Weak');
    await page.getByLabel('Email').fill(uniqueEmail('weak'));
    await page.getByLabel('Password').fill('password1');
    await page.getByRole('button', { name: 'Create account' }).click();
    const passwordError = page.getByTestId('password-error');
    await passwordError.waitFor();
    expect(await passwordError.textContent()).toMatch(/upper-case letter/);

    await page.getByLabel('Email').fill(existing.email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    const emailError = page.getByTestId('email-error');
    await emailError.waitFor();
    expect(await emailError.textContent()).toMatch(/already exists/);
  });
});
