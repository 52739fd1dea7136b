import { createHmac } from 'node:crypto';
import {
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  RevokeTokenCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp, type TestApp } from '../support/test-app.ts';

// An app client with a secret: SecretHash = Base64(HMAC-SHA256(secret, username + clientId)) is
// required on every operation that names a user; RevokeToken takes the raw ClientSecret.
describe('an app client with a secret', () => {
  let app: TestApp;
  let sdk: CognitoIdentityProviderClient;
  let clientId: string;
  let secret: string;
  const hash = (username: string, key = secret) =>
    createHmac('sha256', key)
      .update(username + clientId)
      .digest('base64');

  beforeAll(async () => {
    app = await startTestApp();
    sdk = app.cognito();
    const client = await app.identity.admin.createAppClient({
      name: 'server-side',
      withSecret: true,
    });
    clientId = client.clientId;
    secret = client.clientSecret ?? '';
  });
  afterAll(() => app.close());

  test('the secret looks like Cognito’s', () => {
    expect(clientId).toMatch(/^[a-z0-9]{26}$/);
    expect(secret).toMatch(/^[a-z0-9]{51}$/);
  });

  test('every operation that names a user needs the SecretHash, and checks it', async () => {
    const email = uniqueEmail('secret');
    const signUp = (secretHash?: string) =>
      sdk.send(
        new SignUpCommand({
          ClientId: clientId,
          Username: email,
          Password: TEST_PASSWORD,
          ...(secretHash ? { SecretHash: secretHash } : {}),
        }),
      );
    expect(await failureOf(signUp())).toEqual({
      name: 'NotAuthorizedException',
      message: `Client ${clientId} is configured for secret but secret was not received`,
      status: 400,
    });
    expect(await failureOf(signUp(hash(email, 'wrong-secret')))).toEqual({
      name: 'NotAuthorizedException',
      message: `Unable to verify secret hash for client ${clientId}`,
      status: 400,
    });
    const { UserSub } = await signUp(hash(email));
    await app.smtp!.nextCode(email);

    expect(
      (
        await failureOf(
          sdk.send(new ResendConfirmationCodeCommand({ ClientId: clientId, Username: email })),
        )
      ).message,
    ).toContain('configured for secret');
    await sdk.send(
      new ResendConfirmationCodeCommand({
        ClientId: clientId,
        Username: email,
        SecretHash: hash(email),
      }),
    );
    const code = await app.smtp!.nextCode(email);
    expect(
      (
        await failureOf(
          sdk.send(
            new ConfirmSignUpCommand({
              ClientId: clientId,
              Username: email,
              ConfirmationCode: code,
            }),
          ),
        )
      ).message,
    ).toContain('configured for secret');
    await sdk.send(
      new ConfirmSignUpCommand({
        ClientId: clientId,
        Username: email,
        ConfirmationCode: code,
        SecretHash: hash(email),
      }),
    );

    const signIn = (parameters: Record<string, string>) =>
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: email, PASSWORD: TEST_PASSWORD, ...parameters },
        }),
      );
    expect((await failureOf(signIn({}))).message).toContain('configured for secret');
    expect((await failureOf(signIn({ SECRET_HASH: hash('someone@else.com') }))).message).toBe(
      `Unable to verify secret hash for client ${clientId}`,
    );
    const tokens = (await signIn({ SECRET_HASH: hash(email) })).AuthenticationResult!;

    // Refresh hashes the internal user name (the sub), as Cognito requires.
    const refresh = (secretHash?: string) =>
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: clientId,
          AuthParameters: {
            REFRESH_TOKEN: tokens.RefreshToken!,
            ...(secretHash ? { SECRET_HASH: secretHash } : {}),
          },
        }),
      );
    expect((await failureOf(refresh())).message).toContain('configured for secret');
    expect(await failureOf(refresh(hash(email)))).toMatchObject({
      name: 'NotAuthorizedException',
      message: `SecretHash does not match for the client: ${clientId}`,
    });
    await refresh(hash(UserSub ?? ''));

    await sdk.send(
      new ForgotPasswordCommand({ ClientId: clientId, Username: email, SecretHash: hash(email) }),
    );
    const resetCode = await app.smtp!.nextCode(email);
    expect(
      (
        await failureOf(
          sdk.send(
            new ConfirmForgotPasswordCommand({
              ClientId: clientId,
              Username: email,
              ConfirmationCode: resetCode,
              Password: 'New-Password-2',
            }),
          ),
        )
      ).message,
    ).toContain('configured for secret');
    await sdk.send(
      new ConfirmForgotPasswordCommand({
        ClientId: clientId,
        Username: email,
        ConfirmationCode: resetCode,
        Password: 'New-Password-2',
        SecretHash: hash(email),
      }),
    );
  });

  test('RevokeToken authenticates the client with its raw ClientSecret', async () => {
    const user = await app.createUser();
    const tokens = (
      await sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: {
            USERNAME: user.email,
            PASSWORD: user.password,
            SECRET_HASH: hash(user.email),
          },
        }),
      )
    ).AuthenticationResult!;
    const revoke = (clientSecret?: string) =>
      sdk.send(
        new RevokeTokenCommand({
          ClientId: clientId,
          Token: tokens.RefreshToken!,
          ...(clientSecret ? { ClientSecret: clientSecret } : {}),
        }),
      );
    expect((await failureOf(revoke())).name).toBe('UnauthorizedException');
    expect((await failureOf(revoke('wrongsecret'))).name).toBe('UnauthorizedException');
    await revoke(secret);
    const refresh = await failureOf(
      sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: clientId,
          AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken!, SECRET_HASH: hash(user.sub) },
        }),
      ),
    );
    expect(refresh.message).toBe('Refresh Token has been revoked');
  });
});
