import {
  ChangePasswordCommand,
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  DeleteUserCommand,
  ForgotPasswordCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp, type TestApp } from '../support/test-app.ts';

const NEW_PASSWORD = 'Brand-New-Pass-7';

// Sign-out, revocation, password change and reset, attributes and account deletion through the
// real AWS SDK v3 client.
describe('sessions, passwords and the account', () => {
  let app: TestApp;
  let sdk: CognitoIdentityProviderClient;
  let clientId: string;
  beforeAll(async () => {
    app = await startTestApp();
    sdk = app.cognito();
    clientId = app.identity.clientId;
  });
  afterAll(() => app.close());

  const refresh = (token: string) =>
    sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: clientId,
        AuthParameters: { REFRESH_TOKEN: token },
      }),
    );
  const getUser = (token: string) => sdk.send(new GetUserCommand({ AccessToken: token }));
  const forgot = (email: string) =>
    sdk.send(new ForgotPasswordCommand({ ClientId: clientId, Username: email }));
  const confirmForgot = (email: string, code: string, password = NEW_PASSWORD) =>
    sdk.send(
      new ConfirmForgotPasswordCommand({
        ClientId: clientId,
        Username: email,
        ConfirmationCode: code,
        Password: password,
      }),
    );
  const apiStatus = async (token: string) => (await app.api('/api/user', { token })).status;

  describe('GlobalSignOut', () => {
    test('makes every refresh and access token of the user unusable, in the service and the API', async () => {
      const user = await app.createUser();
      const phone = await app.signIn(user);
      const laptop = await app.signIn(user);
      await app.api('/api/user', { token: phone.AccessToken, method: 'POST', body: {} });
      expect(await apiStatus(phone.AccessToken)).toBe(200);

      await sdk.send(new GlobalSignOutCommand({ AccessToken: laptop.AccessToken }));

      for (const session of [phone, laptop]) {
        expect(await failureOf(refresh(session.RefreshToken))).toEqual({
          name: 'NotAuthorizedException',
          message: 'Refresh Token has been revoked',
          status: 400,
        });
        expect(await failureOf(getUser(session.AccessToken))).toMatchObject({
          name: 'NotAuthorizedException',
          message: 'Access Token has been revoked',
        });
        expect(await apiStatus(session.AccessToken)).toBe(401);
      }
      // A new sign-in works.
      const again = await app.signIn(user);
      expect(await apiStatus(again.AccessToken)).toBe(200);
    });
  });

  describe('RevokeToken', () => {
    test('revokes one session: its refresh token and its access tokens; other sessions live on', async () => {
      const user = await app.createUser();
      const revoked = await app.signIn(user);
      const kept = await app.signIn(user);
      const refreshed = (await refresh(revoked.RefreshToken)).AuthenticationResult!;

      await sdk.send(new RevokeTokenCommand({ ClientId: clientId, Token: revoked.RefreshToken }));

      expect((await failureOf(refresh(revoked.RefreshToken))).message).toBe(
        'Refresh Token has been revoked',
      );
      expect((await failureOf(getUser(revoked.AccessToken))).message).toBe(
        'Access Token has been revoked',
      );
      expect((await failureOf(getUser(refreshed.AccessToken!))).message).toBe(
        'Access Token has been revoked',
      );
      await refresh(kept.RefreshToken);
      await getUser(kept.AccessToken);
    });

    test('refuses access tokens, accepts unknown tokens, and refuses another client’s token', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      expect(
        await failureOf(
          sdk.send(new RevokeTokenCommand({ ClientId: clientId, Token: tokens.AccessToken })),
        ),
      ).toMatchObject({
        name: 'UnsupportedTokenTypeException',
      });
      await sdk.send(new RevokeTokenCommand({ ClientId: clientId, Token: 'never-issued' }));
      const other = await app.identity.admin.createAppClient({ name: 'other', withSecret: false });
      expect(
        await failureOf(
          sdk.send(
            new RevokeTokenCommand({ ClientId: other.clientId, Token: tokens.RefreshToken }),
          ),
        ),
      ).toMatchObject({ name: 'UnauthorizedException' });
      await refresh(tokens.RefreshToken);
    });
  });

  describe('ChangePassword', () => {
    test('needs the current password, applies the policy, and signs out the other sessions', async () => {
      const user = await app.createUser();
      const current = await app.signIn(user);
      const other = await app.signIn(user);
      const change = (previous: string, proposed: string) =>
        sdk.send(
          new ChangePasswordCommand({
            AccessToken: current.AccessToken,
            PreviousPassword: previous,
            ProposedPassword: proposed,
          }),
        );

      expect(await failureOf(change('Wrong-Password-1', NEW_PASSWORD))).toEqual({
        name: 'NotAuthorizedException',
        message: 'Incorrect username or password.',
        status: 400,
      });
      expect(await failureOf(change(user.password, 'weakpass'))).toMatchObject({
        name: 'InvalidPasswordException',
        message: 'Password did not conform with policy: Password must have uppercase characters',
      });
      await change(user.password, NEW_PASSWORD);

      expect((await failureOf(app.signIn(user))).name).toBe('NotAuthorizedException');
      await app.signIn({ email: user.email, password: NEW_PASSWORD });
      // The session that changed the password stays signed in; the other one is signed out.
      await getUser(current.AccessToken);
      await refresh(current.RefreshToken);
      expect((await failureOf(refresh(other.RefreshToken))).message).toBe(
        'Refresh Token has been revoked',
      );
      expect(await apiStatus(other.AccessToken)).toBe(401);
    });

    test('more than five attempts an hour answer LimitExceededException', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      const attempt = () =>
        sdk.send(
          new ChangePasswordCommand({
            AccessToken: tokens.AccessToken,
            PreviousPassword: 'Wrong-Password-1',
            ProposedPassword: NEW_PASSWORD,
          }),
        );
      for (let index = 0; index < 5; index++)
        expect((await failureOf(attempt())).name).toBe('NotAuthorizedException');
      expect(await failureOf(attempt())).toMatchObject({
        name: 'LimitExceededException',
        message: 'Attempt limit exceeded, please try after some time.',
      });
    });
  });

  describe('ForgotPassword and ConfirmForgotPassword', () => {
    test('a reset code by e-mail sets a new password and signs out every session', async () => {
      const user = await app.createUser();
      const session = await app.signIn(user);
      const answer = await forgot(user.email);
      expect(answer.CodeDeliveryDetails).toEqual({
        Destination: 'u***@e***',
        DeliveryMedium: 'EMAIL',
        AttributeName: 'email',
      });
      const mail = await app.smtp!.waitForMail(user.email);
      expect(mail.subject).toBe('Your Earshot verification code');
      expect(mail.text).toContain('expires in 1 hour');
      const code = /\b(\d{6})\b/.exec(mail.text)?.[1] ?? '';

      await confirmForgot(user.email, code);

      expect((await failureOf(app.signIn(user))).message).toBe('Incorrect username or password.');
      await app.signIn({ email: user.email, password: NEW_PASSWORD });
      expect((await failureOf(refresh(session.RefreshToken))).message).toBe(
        'Refresh Token has been revoked',
      );
      expect((await failureOf(getUser(session.AccessToken))).message).toBe(
        'Access Token has been revoked',
      );
      // Single use.
      expect(await failureOf(confirmForgot(user.email, code, 'Another-Pass-8'))).toMatchObject({
        name: 'ExpiredCodeException',
        message: 'Invalid code provided, please request a code again.',
      });
    });

    test('a wrong code, an expired code, a weak password', async () => {
      const user = await app.createUser();
      await forgot(user.email);
      const code = await app.smtp!.nextCode(user.email);
      const wrong = code === '000000' ? '111111' : '000000';
      expect(await failureOf(confirmForgot(user.email, wrong))).toMatchObject({
        name: 'CodeMismatchException',
      });
      expect(await failureOf(confirmForgot(user.email, code, 'weak'))).toMatchObject({
        name: 'InvalidPasswordException',
      });
      // The weak password did not spend the code; an hour does.
      app.clock.advance(3600_000 + 1000);
      expect(await failureOf(confirmForgot(user.email, code))).toMatchObject({
        name: 'ExpiredCodeException',
      });
    });

    test('repeated wrong codes answer TooManyFailedAttemptsException', async () => {
      const user = await app.createUser();
      await forgot(user.email);
      const code = await app.smtp!.nextCode(user.email);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let index = 0; index < 5; index++) await failureOf(confirmForgot(user.email, wrong));
      expect(await failureOf(confirmForgot(user.email, code))).toMatchObject({
        name: 'TooManyFailedAttemptsException',
      });
    });

    test('an unknown or unconfirmed user gets the same answers as a real one, and no mail', async () => {
      const ghost = uniqueEmail('ghost');
      expect(await failureOf(confirmForgot(ghost, '123456'))).toMatchObject({
        name: 'CodeMismatchException',
      });
      const answer = await forgot(ghost);
      expect(answer.CodeDeliveryDetails).toEqual({
        Destination: 'g***@e***',
        DeliveryMedium: 'EMAIL',
        AttributeName: 'email',
      });
      expect(await failureOf(confirmForgot(ghost, '123456'))).toMatchObject({
        name: 'CodeMismatchException',
      });

      const unconfirmed = uniqueEmail('unconfirmed');
      await sdk.send(
        new SignUpCommand({ ClientId: clientId, Username: unconfirmed, Password: TEST_PASSWORD }),
      );
      await app.smtp!.nextCode(unconfirmed);
      await forgot(unconfirmed);
      expect(await failureOf(confirmForgot(unconfirmed, '123456'))).toMatchObject({
        name: 'CodeMismatchException',
      });

      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(app.smtp!.pending(ghost)).toEqual([]);
      expect(app.smtp!.pending(unconfirmed)).toEqual([]);
    });

    test('repeated requests answer LimitExceededException', async () => {
      const user = await app.createUser();
      for (let index = 0; index < 5; index++) await forgot(user.email);
      expect(await failureOf(forgot(user.email))).toMatchObject({ name: 'LimitExceededException' });
    });
  });

  describe('UpdateUserAttributes', () => {
    test('changes the names, seen by GetUser and in the next ID token; read-only attributes are refused', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      await sdk.send(
        new UpdateUserAttributesCommand({
          AccessToken: tokens.AccessToken,
          UserAttributes: [
            { Name: 'given_name', Value: 'Augusta' },
            { Name: 'family_name', Value: 'King' },
          ],
        }),
      );
      const me = await getUser(tokens.AccessToken);
      expect(me.UserAttributes).toContainEqual({ Name: 'given_name', Value: 'Augusta' });
      expect(me.UserAttributes).toContainEqual({ Name: 'family_name', Value: 'King' });
      const refreshed = (await refresh(tokens.RefreshToken)).AuthenticationResult!;
      expect(decodeJwt(refreshed.IdToken!)).toMatchObject({
        given_name: 'Augusta',
        family_name: 'King',
      });

      expect(
        await failureOf(
          sdk.send(
            new UpdateUserAttributesCommand({
              AccessToken: tokens.AccessToken,
              UserAttributes: [{ Name: 'sub', Value: 'x' }],
            }),
          ),
        ),
      ).toMatchObject({ name: 'InvalidParameterException' });
    });
  });

  describe('DeleteUser', () => {
    test('removes the identity: tokens stop working, sign-in fails, the address can sign up again', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} });
      // The browser deletes the product data first, then the identity.
      expect(
        (await app.api('/api/user', { token: tokens.AccessToken, method: 'DELETE' })).status,
      ).toBe(204);
      await sdk.send(new DeleteUserCommand({ AccessToken: tokens.AccessToken }));

      expect((await failureOf(getUser(tokens.AccessToken))).message).toBe(
        'Access Token has been revoked',
      );
      expect((await failureOf(refresh(tokens.RefreshToken))).message).toBe(
        'Invalid Refresh Token.',
      );
      expect(await apiStatus(tokens.AccessToken)).toBe(401);
      expect(
        (await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} }))
          .status,
      ).toBe(401);
      expect(await failureOf(app.signIn(user))).toMatchObject({
        message: 'Incorrect username or password.',
      });
      const again = await sdk.send(
        new SignUpCommand({ ClientId: clientId, Username: user.email, Password: TEST_PASSWORD }),
      );
      expect(again.UserSub).not.toBe(user.sub);
    });
  });
});
