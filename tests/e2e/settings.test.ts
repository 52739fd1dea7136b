import { describe, expect, test } from 'vitest';
import { browserAvailability, openPage, UI_WAIT } from '../support/browser.ts';
import { useBrowserSuite } from '../support/browser-suite.ts';
import type { E2eUser } from '../support/e2e-app.ts';
import { uniqueEmail } from '../support/factories.ts';

const availability = browserAvailability();

describe.runIf(availability.run)('settings in Chromium', () => {
  const suite = useBrowserSuite(availability.run ? availability.path : '');

  async function signedInPage(user: E2eUser) {
    const context = await suite.newContext({ viewport: { width: 1280, height: 900 } });
    await suite.e2e.seedSession(context, user);
    const opened = await openPage(context);
    await opened.page.goto('/dashboard/settings');
    await opened.page.getByRole('heading', { name: 'Profile' }).waitFor();
    return opened;
  }

  test('the profile, email alerts and time zone are saved and shown after a reload', async () => {
    const user = await suite.e2e.createConfirmedUser({ givenName: 'Marie', familyName: 'Curie' });
    const { page, problems } = await signedInPage(user);
    await page.getByLabel('First name').fill('Maria');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.getByText('Profile saved.').waitFor();
    expect(await page.getByTestId('header-user').textContent()).toContain('Maria');

    await page.getByLabel('Daily digest').check();
    await page.getByLabel('Time zone', { exact: true }).selectOption('Europe/Paris');
    await page.getByRole('button', { name: 'Save email alerts' }).click();
    await page.getByText('Email alerts saved.').waitFor();

    await page.reload();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    expect(await page.getByLabel('First name').inputValue()).toBe('Maria');
    expect(await page.getByTestId('header-user').textContent()).toContain('Maria');
    expect(await page.getByLabel('Daily digest').isChecked()).toBe(true);
    expect(await page.getByLabel('Time zone', { exact: true }).inputValue()).toBe('Europe/Paris');
    expect(problems.errors).toEqual([]);
  });

  test('changing the password needs the current one and takes effect', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page } = await signedInPage(user);
    await page.getByLabel('Current password').fill('Wrong-Current-1');
    await page.getByLabel('New password', { exact: true }).fill('Another-Secret-8');
    await page.getByLabel('Repeat the new password').fill('Another-Secret-8');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page
      .getByTestId('password-error')
      .getByText(/current password is not right/)
      .waitFor();

    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText(/Password changed/).waitFor();
    await expect(suite.e2e.signIn(user)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(
      suite.e2e.signIn({ ...user, password: 'Another-Secret-8' }),
    ).resolves.toHaveProperty('AccessToken');
  });

  test('the email address changes once the code sent to the new address is entered', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const other = await suite.e2e.createConfirmedUser();
    const { page, problems } = await signedInPage(user);
    const card = page.getByRole('heading', { name: 'Email address' });
    await card.waitFor();
    expect(await page.getByLabel('Current email').inputValue()).toBe(user.email);

    await page.getByLabel('New email').fill(other.email);
    await page.getByRole('button', { name: 'Send a code' }).click();
    await page
      .getByTestId('email-error')
      .getByText(/Another account already uses/)
      .waitFor();

    const next = uniqueEmail('moved');
    await page.getByLabel('New email').fill(next);
    await page.getByRole('button', { name: 'Send a code' }).click();
    await page.getByTestId('form-notice').getByText(next).waitFor();
    const code = await suite.e2e.smtp.nextCode(next);
    // Until the code is entered, the old address is still the sign-in name.
    await expect(suite.e2e.signIn(user)).resolves.toHaveProperty('AccessToken');
    await page.getByLabel('Code').fill(code);
    await page.getByRole('button', { name: 'Confirm new email' }).click();
    await page.getByText(/Email address changed/).waitFor();
    await expect.poll(() => page.getByLabel('Current email').inputValue(), UI_WAIT).toBe(next);

    await expect(suite.e2e.signIn({ ...user, email: next })).resolves.toHaveProperty('AccessToken');
    await expect(suite.e2e.signIn(user)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect(problems.errors.filter((error) => !/status of 400/.test(error))).toEqual([]);
  });

  test('deleting the account needs the typed confirmation and removes the identity and the data', async () => {
    const user = await suite.e2e.createConfirmedUser();
    const { page, problems } = await signedInPage(user);
    const before = await suite.e2e.signIn(user);
    await page.getByRole('button', { name: 'Delete my account…' }).click();
    const dialog = page.getByRole('alertdialog');
    const confirm = dialog.getByRole('button', { name: 'Delete forever' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('delete');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await confirm.click();

    await page.waitForURL((url) => url.pathname === '/');
    await page.getByText(/account and all its data are deleted/).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    await expect(suite.e2e.signIn(user)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const afterwards = await fetch(`${suite.e2e.app.url}/api/user`, {
      headers: { Authorization: before.AccessToken },
    });
    expect([401, 404]).toContain(afterwards.status);
    expect(problems.errors).toEqual([]);
  });
});
