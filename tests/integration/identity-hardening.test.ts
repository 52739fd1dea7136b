import { createServer, type Server, type Socket } from 'node:net';
import {
  type CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  ForgotPasswordCommand,
  GetUserAttributeVerificationCodeCommand,
  GetUserCommand,
  InitiateAuthCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  VerifyUserAttributeCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp, type TestApp } from '../support/test-app.ts';

// Issue #11: the last gaps against Cognito and what a security review found, each through the
// real AWS SDK client against the embedded service over real HTTP.
describe('identity hardening', () => {
  let app: TestApp;
  let sdk: CognitoIdentityProviderClient;
  let clientId: string;
  beforeAll(async () => {
    app = await startTestApp();
    sdk = app.cognito();
    clientId = app.identity.clientId;
  });
  afterAll(() => app.close());

  const signIn = (email: string, password = TEST_PASSWORD) =>
    sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: email, PASSWORD: password },
      }),
    );
  const signUp = (email: string, attributes: { Name: string; Value: string }[] = []) =>
    sdk.send(
      new SignUpCommand({
        ClientId: clientId,
        Username: email,
        Password: TEST_PASSWORD,
        UserAttributes: attributes,
      }),
    );
  const emailOf = async (accessToken: string) => {
    const answer = await sdk.send(new GetUserCommand({ AccessToken: accessToken }));
    const attributes = new Map(answer.UserAttributes?.map((item) => [item.Name, item.Value]));
    return { email: attributes.get('email'), verified: attributes.get('email_verified') };
  };

  describe('changing the e-mail address (Cognito with keep-original-value-until-verified)', () => {
    test('a code goes to the new address; VerifyUserAttribute switches it; the record follows', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      expect(
        (await app.api('/api/user', { token: tokens.AccessToken, method: 'POST', body: {} }))
          .status,
      ).toBe(201);
      const next = uniqueEmail('moved');

      const answer = await sdk.send(
        new UpdateUserAttributesCommand({
          AccessToken: tokens.AccessToken,
          UserAttributes: [{ Name: 'email', Value: next.toUpperCase() }],
        }),
      );
      expect(answer.CodeDeliveryDetailsList).toEqual([
        { Destination: 'm***@e***', DeliveryMedium: 'EMAIL', AttributeName: 'email' },
      ]);
      const firstCode = await app.smtp!.nextCode(next);
      // Until it is verified, the old address stays the user name and the attribute.
      expect(await emailOf(tokens.AccessToken)).toEqual({ email: user.email, verified: 'true' });
      await signIn(user.email);
      expect((await failureOf(signIn(next))).name).toBe('NotAuthorizedException');

      const verify = (code: string) =>
        sdk.send(
          new VerifyUserAttributeCommand({
            AccessToken: tokens.AccessToken,
            AttributeName: 'email',
            Code: code,
          }),
        );
      expect(await failureOf(verify(firstCode === '000000' ? '111111' : '000000'))).toMatchObject({
        name: 'CodeMismatchException',
      });
      const resent = await sdk.send(
        new GetUserAttributeVerificationCodeCommand({
          AccessToken: tokens.AccessToken,
          AttributeName: 'email',
        }),
      );
      expect(resent.CodeDeliveryDetails).toEqual({
        Destination: 'm***@e***',
        DeliveryMedium: 'EMAIL',
        AttributeName: 'email',
      });
      const code = await app.smtp!.nextCode(next);
      await verify(code);

      expect(await emailOf(tokens.AccessToken)).toEqual({ email: next, verified: 'true' });
      await signIn(next);
      expect((await failureOf(signIn(user.email))).name).toBe('NotAuthorizedException');
      const refreshed = await sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          ClientId: clientId,
          AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
        }),
      );
      expect(decodeJwt(refreshed.AuthenticationResult!.IdToken!)).toMatchObject({
        email: next,
        email_verified: true,
      });

      // The product's record takes the verified address from the identity provider.
      const synced = await app.api('/api/user/email', {
        token: tokens.AccessToken,
        method: 'POST',
        body: {},
      });
      expect(synced.status).toBe(200);
      expect(await synced.json()).toMatchObject({ email: next });
      expect(
        await (await app.api('/api/user', { token: tokens.AccessToken })).json(),
      ).toMatchObject({
        email: next,
      });
    });

    test('a reset code sent to the old address dies with the switch', async () => {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      await sdk.send(new ForgotPasswordCommand({ ClientId: clientId, Username: user.email }));
      const resetCode = await app.smtp!.nextCode(user.email);
      const next = uniqueEmail('switched');
      await sdk.send(
        new UpdateUserAttributesCommand({
          AccessToken: tokens.AccessToken,
          UserAttributes: [{ Name: 'email', Value: next }],
        }),
      );
      await sdk.send(
        new VerifyUserAttributeCommand({
          AccessToken: tokens.AccessToken,
          AttributeName: 'email',
          Code: await app.smtp!.nextCode(next),
        }),
      );
      expect(
        await failureOf(
          sdk.send(
            new ConfirmForgotPasswordCommand({
              ClientId: clientId,
              Username: user.email,
              ConfirmationCode: resetCode,
              Password: 'Taken-Over-1',
            }),
          ),
        ),
      ).toMatchObject({ name: 'CodeMismatchException' });
      await signIn(next);
    });

    test('an address another account uses is refused with AliasExistsException', async () => {
      const user = await app.createUser();
      const other = await app.createUser();
      const tokens = await app.signIn(user);
      expect(
        await failureOf(
          sdk.send(
            new UpdateUserAttributesCommand({
              AccessToken: tokens.AccessToken,
              UserAttributes: [{ Name: 'email', Value: other.email }],
            }),
          ),
        ),
      ).toMatchObject({
        name: 'AliasExistsException',
        message: 'An account with the given email already exists.',
      });
      expect(
        await failureOf(
          sdk.send(
            new VerifyUserAttributeCommand({
              AccessToken: tokens.AccessToken,
              AttributeName: 'email',
              Code: '123456',
            }),
          ),
        ),
      ).toMatchObject({ name: 'ExpiredCodeException' });
    });
  });

  test('ConfirmForgotPassword for an unknown user answers CodeMismatchException', async () => {
    expect(
      await failureOf(
        sdk.send(
          new ConfirmForgotPasswordCommand({
            ClientId: clientId,
            Username: uniqueEmail('nobody'),
            ConfirmationCode: '123456',
            Password: TEST_PASSWORD,
          }),
        ),
      ),
    ).toMatchObject({ name: 'CodeMismatchException' });
  });

  test('concurrent wrong passwords get at most five real checks before the lock', async () => {
    const user = await app.createUser();
    const answers = await Promise.all(
      Array.from({ length: 30 }, () => failureOf(signIn(user.email, 'Wrong-Password-1'))),
    );
    const checked = answers.filter(
      (answer) => answer.message === 'Incorrect username or password.',
    );
    const locked = answers.filter((answer) => answer.message === 'Password attempts exceeded');
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.length + locked.length).toBe(30);
  });

  test('attribute values with control characters are refused, never a 500', async () => {
    for (const value of ['Ada\u0000', 'Ada\u0007', 'Ada\u202eecilA', 'A\u2066da']) {
      expect(
        await failureOf(signUp(uniqueEmail('ctl'), [{ Name: 'given_name', Value: value }])),
        JSON.stringify(value),
      ).toMatchObject({ name: 'InvalidParameterException', status: 400 });
    }
    const user = await app.createUser();
    const tokens = await app.signIn(user);
    expect(
      await failureOf(
        sdk.send(
          new UpdateUserAttributesCommand({
            AccessToken: tokens.AccessToken,
            UserAttributes: [{ Name: 'family_name', Value: 'King\u0000' }],
          }),
        ),
      ),
    ).toMatchObject({ name: 'InvalidParameterException', status: 400 });
  });

  test('only plain addr-spec addresses are accepted as e-mail', async () => {
    for (const odd of [
      'x<attacker@evil.com>',
      'victim@corp.com(1)a.b',
      '"quoted"@example.com',
      'a@example.com,b@example.com',
      'a@@example.com',
    ]) {
      expect(await failureOf(signUp(odd)), odd).toMatchObject({
        name: 'InvalidParameterException',
        message: 'Username should be an email.',
      });
    }
    expect(app.smtp!.messages.some((mail) => mail.to.includes('attacker@evil.com'))).toBe(false);
  });

  test('user names are normalised (NFKC, then lower case): NFC and NFD are one account', async () => {
    const local = `zo\u00eb-${Date.now()}`;
    const nfc = `${local}@example.com`;
    const nfd = nfc.normalize('NFD');
    expect(nfd).not.toBe(nfc);
    await signUp(nfc);
    const code = await app.smtp!.nextCode(nfc);
    expect((await failureOf(signUp(nfd.toUpperCase()))).name).toBe('UsernameExistsException');
    await sdk.send(
      new ConfirmSignUpCommand({ ClientId: clientId, Username: nfd, ConfirmationCode: code }),
    );
    expect((await signIn(nfd)).AuthenticationResult?.AccessToken).toBeTruthy();
  });
});

describe('per-address limits never refuse valid credentials or tokens', () => {
  test('after many failed sign-ins from one address, another account still signs in', async () => {
    const app = await startTestApp({
      limits: { perIp: { signInFailures: { limit: 3, windowSeconds: 60 } } },
    });
    try {
      const sdk = app.cognito();
      const user = await app.createUser();
      const attempt = (username: string, password: string) =>
        sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: app.identity.clientId,
            AuthParameters: { USERNAME: username, PASSWORD: password },
          }),
        );
      for (let index = 0; index < 5; index++)
        await failureOf(attempt(uniqueEmail(), 'Wrong-Password-1'));
      expect((await attempt(user.email, user.password)).AuthenticationResult).toBeTruthy();
    } finally {
      await app.close();
    }
  });

  test('after many bad tokens from one address, a valid token still works', async () => {
    const app = await startTestApp();
    try {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      for (let index = 0; index < 70; index++) {
        await app.api('/api/user', { token: `bad.token.${index}` });
      }
      expect((await app.api('/api/user', { token: 'bad.token.x' })).status).toBe(429);
      expect((await app.api('/api/user', { token: tokens.AccessToken })).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  test('ConfirmSignUp is limited per address', async () => {
    const app = await startTestApp({
      limits: { perIp: { confirmSignUp: { limit: 3, windowSeconds: 60 } } },
    });
    try {
      const sdk = app.cognito();
      const probe = () =>
        failureOf(
          sdk.send(
            new ConfirmSignUpCommand({
              ClientId: app.identity.clientId,
              Username: uniqueEmail('probe'),
              ConfirmationCode: '123456',
            }),
          ),
        );
      for (let index = 0; index < 3; index++)
        expect((await probe()).name).not.toBe('TooManyRequestsException');
      expect(await probe()).toMatchObject({
        name: 'TooManyRequestsException',
        message: 'Rate exceeded',
      });
    } finally {
      await app.close();
    }
  });
});

test('ForgotPassword answers before the code is sent, so a slow mail server shows nothing', async () => {
  // An SMTP server that accepts connections and never says a word.
  const sockets = new Set<Socket>();
  let closing = false;
  const silent: Server = createServer((socket) => {
    socket.on('error', () => {});
    if (closing) socket.destroy();
    else sockets.add(socket);
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const address = silent.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const app = await startTestApp({
    smtp: false,
    env: { SMTP_URL: `smtp://127.0.0.1:${port}` },
  });
  try {
    const user = await app.createUser();
    const started = performance.now();
    const answer = await app
      .cognito()
      .send(new ForgotPasswordCommand({ ClientId: app.identity.clientId, Username: user.email }));
    expect(answer.CodeDeliveryDetails?.DeliveryMedium).toBe('EMAIL');
    expect(performance.now() - started).toBeLessThan(3000);
  } finally {
    closing = true;
    for (const socket of sockets) socket.destroy();
    await app.close();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
});
