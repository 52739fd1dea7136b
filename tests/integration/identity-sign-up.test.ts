import {
  type CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { idpCodes } from '../../src/db/schema/identity.ts';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp, type TestApp } from '../support/test-app.ts';

const HOUR = 3600_000;

// SignUp, ConfirmSignUp and ResendConfirmationCode through the real AWS SDK v3 client, with the
// codes read from a real SMTP server on loopback.
describe('sign-up and confirmation', () => {
  let app: TestApp;
  let sdk: CognitoIdentityProviderClient;
  let clientId: string;
  beforeAll(async () => {
    app = await startTestApp();
    sdk = app.cognito();
    clientId = app.identity.clientId;
  });
  afterAll(() => app.close());

  const signUp = (
    email: string,
    password = TEST_PASSWORD,
    attributes: { Name: string; Value: string }[] = [],
  ) =>
    sdk.send(
      new SignUpCommand({
        ClientId: clientId,
        Username: email,
        Password: password,
        UserAttributes: attributes,
      }),
    );
  const confirm = (email: string, code: string) =>
    sdk.send(
      new ConfirmSignUpCommand({ ClientId: clientId, Username: email, ConfirmationCode: code }),
    );
  const resend = (email: string) =>
    sdk.send(new ResendConfirmationCodeCommand({ ClientId: clientId, Username: email }));
  const signIn = (email: string, password = TEST_PASSWORD) =>
    sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );

  test('sign-up → e-mailed code → confirm → sign in', async () => {
    const email = uniqueEmail('signup');
    const answer = await signUp(email, TEST_PASSWORD, [
      { Name: 'email', Value: email },
      { Name: 'given_name', Value: 'Ada' },
      { Name: 'family_name', Value: 'Lovelace' },
    ]);
    expect(answer.UserConfirmed).toBe(false);
    expect(answer.UserSub).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.CodeDeliveryDetails).toEqual({
      Destination: 's***@e***',
      DeliveryMedium: 'EMAIL',
      AttributeName: 'email',
    });

    const mail = await app.smtp!.waitForMail(email);
    expect(mail.subject).toBe('Your Earshot verification code');
    const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.text).toContain('expires in 24 hours');
    expect(mail.html).toContain(code);

    expect(await failureOf(signIn(email))).toMatchObject({
      name: 'UserNotConfirmedException',
      message: 'User is not confirmed.',
    });
    expect(await confirm(email, code)).toMatchObject({ $metadata: { httpStatusCode: 200 } });
    const tokens = await signIn(email);
    expect(tokens.AuthenticationResult?.AccessToken).toBeTruthy();
  });

  test('an unconfirmed user learns so whatever the password, as Cognito answers', async () => {
    const email = uniqueEmail();
    await signUp(email);
    await app.smtp!.waitForMail(email);
    expect(await failureOf(signIn(email, 'Wrong-Password-1'))).toMatchObject({
      name: 'UserNotConfirmedException',
      message: 'User is not confirmed.',
    });
  });

  test('the code is stored hashed and works once', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const code = await app.smtp!.nextCode(email);
    const rows = await app.database.db.select().from(idpCodes);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.codeHash).not.toContain(code);
    await confirm(email, code);
    expect(await failureOf(confirm(email, code))).toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User cannot be confirmed. Current status is CONFIRMED',
    });
  });

  test('a wrong code answers CodeMismatchException', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const code = await app.smtp!.nextCode(email);
    const wrong = code === '000000' ? '111111' : '000000';
    expect(await failureOf(confirm(email, wrong))).toEqual({
      name: 'CodeMismatchException',
      message: 'Invalid verification code provided, please try again.',
      status: 400,
    });
    await confirm(email, code);
  });

  test('a sign-up code expires after 24 hours', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const code = await app.smtp!.nextCode(email);
    app.clock.advance(24 * HOUR + 1000);
    expect(await failureOf(confirm(email, code))).toMatchObject({
      name: 'ExpiredCodeException',
      message: 'Invalid code provided, please request a code again.',
    });
    await resend(email);
    await confirm(email, await app.smtp!.nextCode(email));
  });

  test('a resent code replaces the previous one', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const first = await app.smtp!.nextCode(email);
    const answer = await resend(email);
    expect(answer.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL');
    const second = await app.smtp!.nextCode(email);
    if (first !== second) {
      expect((await failureOf(confirm(email, first))).name).toBe('CodeMismatchException');
    }
    await confirm(email, second);
    expect(await failureOf(resend(email))).toMatchObject({
      name: 'InvalidParameterException',
      message: 'User is already confirmed.',
    });
  });

  test('repeated wrong codes answer TooManyFailedAttemptsException, even for the right code, until a new one', async () => {
    const email = uniqueEmail();
    await signUp(email);
    const code = await app.smtp!.nextCode(email);
    const wrong = code === '999999' ? '888888' : '999999';
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await failureOf(confirm(email, wrong))).name).toBe('CodeMismatchException');
    }
    expect((await failureOf(confirm(email, wrong))).name).toBe('TooManyFailedAttemptsException');
    expect((await failureOf(confirm(email, code))).name).toBe('TooManyFailedAttemptsException');
    await resend(email);
    await confirm(email, await app.smtp!.nextCode(email));
  });

  test('repeated code requests answer LimitExceededException, for unknown addresses too', async () => {
    const email = uniqueEmail();
    await signUp(email);
    await app.smtp!.nextCode(email);
    for (let request = 0; request < 4; request++) await resend(email);
    expect(await failureOf(resend(email))).toEqual({
      name: 'LimitExceededException',
      message: 'Attempt limit exceeded, please try after some time.',
      status: 400,
    });
    const unknown = uniqueEmail('nobody');
    for (let request = 0; request < 5; request++) await resend(unknown);
    expect((await failureOf(resend(unknown))).name).toBe('LimitExceededException');
    app.clock.advance(HOUR + 1000);
    await resend(email);
  });

  test('ResendConfirmationCode for an unknown address answers like a real one and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    const answer = await resend(email);
    expect(answer.CodeDeliveryDetails).toEqual({
      Destination: 'g***@e***',
      DeliveryMedium: 'EMAIL',
      AttributeName: 'email',
    });
    // And confirming "its" code fails as a wrong code does, not as "no such user".
    expect((await failureOf(confirm(email, '123456'))).name).toBe('CodeMismatchException');
    expect(app.smtp!.messages.some((mail) => mail.to.includes(email))).toBe(false);
  });

  test('an address already signed up answers UsernameExistsException, in any case', async () => {
    const email = uniqueEmail();
    await signUp(email);
    expect(await failureOf(signUp(email.toUpperCase()))).toEqual({
      name: 'UsernameExistsException',
      message: 'An account with the given email already exists.',
      status: 400,
    });
  });

  test.each([
    ['Sh0rt!', 'Password not long enough'],
    ['lower-case-1', 'Password must have uppercase characters'],
    ['UPPER-CASE-1', 'Password must have lowercase characters'],
    ['No-Digits-Here', 'Password must have numeric characters'],
    ['NoSymbols123', 'Password must have symbol characters'],
  ])('password %s answers InvalidPasswordException "%s"', async (password, reason) => {
    expect(await failureOf(signUp(uniqueEmail(), password))).toEqual({
      name: 'InvalidPasswordException',
      message: `Password did not conform with policy: ${reason}`,
      status: 400,
    });
  });

  test('a weak password is refused before the address is looked at', async () => {
    const email = uniqueEmail();
    await signUp(email);
    expect((await failureOf(signUp(email, 'weak'))).name).toBe('InvalidPasswordException');
  });

  test('malformed input answers InvalidParameterException with a useful message', async () => {
    expect(await failureOf(signUp('not-an-email'))).toMatchObject({
      name: 'InvalidParameterException',
      message: 'Username should be an email.',
    });
    expect(
      await failureOf(
        signUp(uniqueEmail(), TEST_PASSWORD, [{ Name: 'custom:plan', Value: 'pro' }]),
      ),
    ).toMatchObject({
      name: 'InvalidParameterException',
      message:
        'Attributes did not conform to the schema: Type for attribute {custom:plan} could not be determined',
    });
    expect(
      await failureOf(
        signUp(uniqueEmail(), TEST_PASSWORD, [{ Name: 'email_verified', Value: 'true' }]),
      ),
    ).toMatchObject({
      name: 'InvalidParameterException',
      message: 'A client attempted to write unauthorized attribute',
    });
    expect(
      (
        await failureOf(
          signUp(uniqueEmail(), TEST_PASSWORD, [{ Name: 'email', Value: 'other@example.com' }]),
        )
      ).name,
    ).toBe('InvalidParameterException');
  });

  test('a code to an unreachable mail server answers CodeDeliveryFailureException', async () => {
    const broken = await startTestApp({ env: { SMTP_URL: 'smtp://127.0.0.1:1' }, smtp: false });
    try {
      const failure = await failureOf(
        broken.cognito().send(
          new SignUpCommand({
            ClientId: broken.identity.clientId,
            Username: uniqueEmail(),
            Password: TEST_PASSWORD,
          }),
        ),
      );
      expect(failure.name).toBe('CodeDeliveryFailureException');
      expect(failure.status).toBe(400);
    } finally {
      await broken.close();
    }
  });
});
