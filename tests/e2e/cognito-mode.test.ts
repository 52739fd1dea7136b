import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type AppProcess, startAppProcess } from '../support/app-process.ts';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { connectBrowser } from '../support/browser-suite.ts';
import { type E2eApp, startE2eApp, waitUntilExpired } from '../support/e2e-app.ts';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';

const availability = browserAvailability();
/** The pool's access-token lifetime: short enough to wait out once. */
const TTL_SECONDS = 5;

type StoredRecord = { AccessToken: string; RefreshToken?: string; IdToken: string };

async function storedRecord(page: Page): Promise<StoredRecord | null> {
  const raw = await page.evaluate(() => localStorage.getItem('token'));
  return raw ? (JSON.parse(raw) as StoredRecord) : null;
}

async function logIn(page: Page, email: string) {
  await page.goto('/account/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/dashboard\/monitors$/);
}

// The mode production uses: Earshot with COGNITO_USER_POOL_ID set, so the browser and the API talk
// to a Cognito pool and the embedded service is off. The pool is a second Earshot's embedded
// service, reached through COGNITO_ENDPOINT exactly as AWS's regional endpoint would be.
describe.runIf(availability.run)('Earshot in Cognito mode, in Chromium', () => {
  let browser: Browser | undefined;
  let pool: E2eApp;
  let app: AppProcess;
  let poolEndpoint: string;

  beforeAll(async () => {
    [browser, pool] = await Promise.all([
      connectBrowser(availability.run ? availability.path : ''),
      startE2eApp({ IDP_ACCESS_TOKEN_TTL_SECONDS: String(TTL_SECONDS) }),
    ]);
    const config = (await (await fetch(`${pool.app.url}/api/config`)).json()) as {
      identity: { endpoint: string; region: string; userPoolId: string; clientId: string };
    };
    poolEndpoint = config.identity.endpoint;
    app = await startAppProcess({
      env: {
        COGNITO_REGION: config.identity.region,
        COGNITO_USER_POOL_ID: config.identity.userPoolId,
        COGNITO_CLIENT_ID: config.identity.clientId,
        COGNITO_ENDPOINT: poolEndpoint,
      },
    });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await pool?.close();
  });

  test('sign-up, confirm, sign-in, refresh before a call, log out, GlobalSignOut then a destructive route refused', async () => {
    const config = (await (await fetch(`${app.url}/api/config`)).json()) as {
      identity: { endpoint: string };
    };
    expect(config.identity.endpoint).toBe(poolEndpoint);
    // The embedded service is off in this process.
    expect((await fetch(`${app.url}/idp/`, { method: 'POST' })).status).not.toBe(200);

    const context = await browser!.newContext({
      baseURL: app.url,
      viewport: { width: 1280, height: 900 },
    });
    const { page, problems } = await openPage(context, [/status of 40[01]/]);
    const identityCalls: string[] = [];
    page.on('request', (request) => {
      const target = request.headers()['x-amz-target'];
      if (target) {
        expect(request.url().startsWith(poolEndpoint)).toBe(true);
        identityCalls.push(target.replace('AWSCognitoIdentityProviderService.', ''));
      }
    });

    // Sign-up and confirmation, the code e-mailed by the pool.
    const email = uniqueEmail('cognito-mode');
    await page.goto('/account/signup');
    await page.getByLabel('First name').fill('Mary');
    await page.getByLabel('Last name').fill('Jackson');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/account\/confirm\?email=/);
    await page.getByLabel('Code').fill(await pool.smtp.nextCode(email));
    await page.getByRole('button', { name: 'Confirm email' }).click();
    await page.waitForURL(/\/account\/login\?email=/);

    // Sign-in: the product's record is made from the pool's GetUser.
    await page.getByLabel('Password', { exact: true }).fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/dashboard\/monitors$/);
    await expect
      .poll(() => page.getByTestId('header-user').textContent(), UI_WAIT)
      .toContain('Mary');
    const first = await storedRecord(page);

    // The access token expires; the next API call is preceded by a refresh at the pool.
    await waitUntilExpired(first?.AccessToken);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Mary');
    const refreshed = await storedRecord(page);
    expect(refreshed?.AccessToken).not.toBe(first?.AccessToken);
    expect(identityCalls).toEqual(['SignUp', 'ConfirmSignUp', 'InitiateAuth', 'InitiateAuth']);

    // Log Out revokes the refresh token at the pool.
    await page.getByTestId('sidebar').getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(/\/account\/login$/);
    await expect
      .poll(() => pool.refresh(first?.RefreshToken ?? ''), { timeout: 5000 })
      .toBe('NotAuthorizedException: Refresh Token has been revoked');

    // Signed in again elsewhere, the user signs out everywhere (GlobalSignOut at the pool).
    await logIn(page, email);
    await page.getByTestId('sidebar').getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Email alerts' }).waitFor();
    const second = await storedRecord(page);
    await pool.globalSignOut(second?.AccessToken ?? '');

    // Reads keep the fast signature check; deleting the account asks the pool and is refused.
    const token = second?.AccessToken ?? '';
    expect((await fetch(`${app.url}/api/user`, { headers: { Authorization: token } })).status).toBe(
      200,
    );
    const refused = await fetch(`${app.url}/api/user`, {
      method: 'DELETE',
      headers: { Authorization: token },
    });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({
      error: { code: 'UNAUTHORIZED', details: { reason: 'revoked' } },
    });

    // In the browser, a settings change is refused too, and the session ends at the login page.
    await page.getByLabel('Daily digest').check();
    await page.getByRole('button', { name: 'Save email alerts' }).click();
    await page.waitForURL(/\/account\/login/);
    const record = await (
      await fetch(`${app.url}/api/user`, { headers: { Authorization: token } })
    ).json();
    expect(record).toMatchObject({ email, emailAlerts: 'instant' });
    expect(problems.errors).toEqual([]);
    await context.close();
  });
});
