import {
  type CognitoIdentityProviderClient,
  GetUserCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { eq } from 'drizzle-orm';
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { idpUsers } from '../../src/db/schema/identity.ts';
import { TEST_PASSWORD, uniqueEmail } from '../support/factories.ts';
import { failureOf, startTestApp, type TestApp, type TestUser } from '../support/test-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// InitiateAuth (USER_PASSWORD_AUTH, REFRESH_TOKEN_AUTH / REFRESH_TOKEN), the tokens and their
// claims, the lockout and the per-IP limit, through the real AWS SDK v3 client.
describe('sign-in, tokens and refresh', () => {
  let app: TestApp;
  let sdk: CognitoIdentityProviderClient;
  let clientId: string;
  beforeAll(async () => {
    app = await startTestApp();
    sdk = app.cognito();
    clientId = app.identity.clientId;
  });
  afterAll(() => app.close());

  const passwordAuth = (username: string, password: string, client = clientId) =>
    sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: client,
        AuthParameters: { USERNAME: username, PASSWORD: password },
      }),
    );
  const refresh = (
    token: string,
    flow: 'REFRESH_TOKEN_AUTH' | 'REFRESH_TOKEN' = 'REFRESH_TOKEN_AUTH',
    client = clientId,
  ) =>
    sdk.send(
      new InitiateAuthCommand({
        AuthFlow: flow,
        ClientId: client,
        AuthParameters: { REFRESH_TOKEN: token },
      }),
    );

  test('a password sign-in returns Cognito’s AuthenticationResult with Cognito’s claims', async () => {
    const user = await app.createUser({ givenName: 'Grace', familyName: 'Hopper' });
    const answer = await passwordAuth(user.email, user.password);
    expect(answer.ChallengeName).toBeUndefined();
    expect(answer.ChallengeParameters).toEqual({});
    const result = answer.AuthenticationResult!;
    expect(result.ExpiresIn).toBe(3600);
    expect(result.TokenType).toBe('Bearer');
    expect(result.RefreshToken).toMatch(/^[A-Za-z0-9_-]{80,}$/);

    const now = Math.floor(app.clock.now().getTime() / 1000);
    const access = decodeJwt(result.AccessToken!);
    expect(Object.keys(access)).toEqual([
      'sub',
      'iss',
      'client_id',
      'origin_jti',
      'event_id',
      'token_use',
      'scope',
      'auth_time',
      'exp',
      'iat',
      'jti',
      'username',
    ]);
    expect(access).toMatchObject({
      sub: user.sub,
      iss: app.identity.issuer,
      client_id: clientId,
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      auth_time: now,
      iat: now,
      exp: now + 3600,
      username: user.sub,
    });
    expect(access.aud).toBeUndefined();
    for (const claim of ['origin_jti', 'event_id', 'jti'] as const)
      expect(access[claim]).toMatch(UUID);

    const id = decodeJwt(result.IdToken!);
    expect(id).toMatchObject({
      sub: user.sub,
      aud: clientId,
      iss: app.identity.issuer,
      email: user.email,
      email_verified: true,
      given_name: 'Grace',
      family_name: 'Hopper',
      'cognito:username': user.sub,
      token_use: 'id',
      auth_time: now,
      iat: now,
      exp: now + 3600,
      origin_jti: access.origin_jti,
    });
    expect(id.jti).toMatch(UUID);
    expect(id.jti).not.toBe(access.jti);

    const accessHeader = decodeProtectedHeader(result.AccessToken!);
    const idHeader = decodeProtectedHeader(result.IdToken!);
    expect(accessHeader).toEqual({ kid: expect.any(String), alg: 'RS256' });
    expect(idHeader.kid).not.toBe(accessHeader.kid);

    // Both verify against the published JWKS, as any Cognito verifier would do it.
    const jwks = createRemoteJWKSet(new URL(`${app.identity.issuer}/.well-known/jwks.json`));
    const options = { issuer: app.identity.issuer, currentDate: app.clock.now() };
    await expect(jwtVerify(result.AccessToken!, jwks, options)).resolves.toBeTruthy();
    await expect(
      jwtVerify(result.IdToken!, jwks, { ...options, audience: clientId }),
    ).resolves.toBeTruthy();
  });

  test('the user name is the e-mail address in any case, or the internal name (sub)', async () => {
    const user = await app.createUser();
    await passwordAuth(user.email.toUpperCase(), user.password);
    await passwordAuth(user.sub, user.password);
  });

  test('a wrong password and an unknown user get the same answer', async () => {
    const user = await app.createUser();
    const wrong = await failureOf(passwordAuth(user.email, 'Wrong-Password-1'));
    const unknown = await failureOf(passwordAuth(uniqueEmail('nobody'), 'Wrong-Password-1'));
    expect(wrong).toEqual({
      name: 'NotAuthorizedException',
      message: 'Incorrect username or password.',
      status: 400,
    });
    expect(unknown).toEqual(wrong);
  });

  test('missing parameters and unsupported flows answer InvalidParameterException', async () => {
    const missing = (parameters: Record<string, string>) =>
      failureOf(
        sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: clientId,
            AuthParameters: parameters,
          }),
        ),
      );
    expect(await missing({ PASSWORD: 'x' })).toMatchObject({
      name: 'InvalidParameterException',
      message: 'Missing required parameter USERNAME',
    });
    expect(await missing({ USERNAME: 'a@example.com' })).toMatchObject({
      message: 'Missing required parameter PASSWORD',
    });
    expect(
      await failureOf(
        sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: clientId,
            AuthParameters: {},
          }),
        ),
      ),
    ).toMatchObject({
      name: 'InvalidParameterException',
      message: 'Missing required parameter REFRESH_TOKEN',
    });
    expect(
      await failureOf(
        sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_SRP_AUTH',
            ClientId: clientId,
            AuthParameters: {},
          }),
        ),
      ),
    ).toMatchObject({
      name: 'InvalidParameterException',
      message: 'USER_SRP_AUTH flow not enabled for this client',
    });
    expect(
      await failureOf(
        sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'ADMIN_USER_PASSWORD_AUTH',
            ClientId: clientId,
            AuthParameters: {},
          }),
        ),
      ),
    ).toMatchObject({
      name: 'InvalidParameterException',
      message: 'Initiate Auth method not supported.',
    });
  });

  test('refresh returns new access and ID tokens of the same session, and no refresh token', async () => {
    const user = await app.createUser();
    const first = (await passwordAuth(user.email, user.password)).AuthenticationResult!;
    app.clock.advance(10 * 60_000);
    for (const flow of ['REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN'] as const) {
      const answer = await refresh(first.RefreshToken!, flow);
      const result = answer.AuthenticationResult!;
      expect(result.RefreshToken).toBeUndefined();
      expect(result.ExpiresIn).toBe(3600);
      expect(result.TokenType).toBe('Bearer');
      const before = decodeJwt(first.AccessToken!);
      const after = decodeJwt(result.AccessToken!);
      expect(after.origin_jti).toBe(before.origin_jti);
      expect(after.auth_time).toBe(before.auth_time);
      expect(after.jti).not.toBe(before.jti);
      expect(after.iat).toBe(Math.floor(app.clock.now().getTime() / 1000));
      expect(decodeJwt(result.IdToken!).origin_jti).toBe(before.origin_jti);
      await sdk.send(new GetUserCommand({ AccessToken: result.AccessToken! }));
    }
  });

  test('a bad refresh token, or another client’s, answers "Invalid Refresh Token."', async () => {
    expect(await failureOf(refresh('not-a-refresh-token'))).toEqual({
      name: 'NotAuthorizedException',
      message: 'Invalid Refresh Token.',
      status: 400,
    });
    const other = await app.identity.admin.createAppClient({ name: 'other', withSecret: false });
    const user = await app.createUser();
    const tokens = await app.signIn(user, other.clientId);
    expect((await failureOf(refresh(tokens.RefreshToken))).message).toBe('Invalid Refresh Token.');
    await refresh(tokens.RefreshToken, 'REFRESH_TOKEN_AUTH', other.clientId);
  });

  test('a refresh token expires after 30 days', async () => {
    const user = await app.createUser();
    const tokens = await app.signIn(user);
    app.clock.advance(29 * 86_400_000);
    await refresh(tokens.RefreshToken);
    app.clock.advance(86_400_000 + 1000);
    expect(await failureOf(refresh(tokens.RefreshToken))).toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Refresh Token has expired',
    });
  });

  test('GetUser answers "Access Token has expired" after an hour and "Invalid Access Token" for garbage', async () => {
    const user = await app.createUser();
    const tokens = await app.signIn(user);
    const getUser = (token: string) => sdk.send(new GetUserCommand({ AccessToken: token }));
    const me = await getUser(tokens.AccessToken);
    expect(me.Username).toBe(user.sub);
    expect(me.UserAttributes).toEqual([
      { Name: 'sub', Value: user.sub },
      { Name: 'email_verified', Value: 'true' },
      { Name: 'given_name', Value: 'Ada' },
      { Name: 'family_name', Value: 'Lovelace' },
      { Name: 'email', Value: user.email },
    ]);
    expect(await failureOf(getUser(tokens.IdToken))).toMatchObject({
      message: 'Invalid Access Token',
    });
    expect(await failureOf(getUser('aaa.bbb.ccc'))).toEqual({
      name: 'NotAuthorizedException',
      message: 'Invalid Access Token',
      status: 400,
    });
    app.clock.advance(3600_000 + 10_000);
    expect(await failureOf(getUser(tokens.AccessToken))).toMatchObject({
      name: 'NotAuthorizedException',
      message: 'Access Token has expired',
    });
  });

  describe('lockout', () => {
    const fail = (user: TestUser) => failureOf(passwordAuth(user.email, 'Wrong-Password-1'));

    test('five failures lock the account; the lock grows and ends, and the right password then works', async () => {
      const user = await app.createUser();
      for (let attempt = 0; attempt < 5; attempt++) {
        expect((await fail(user)).message).toBe('Incorrect username or password.');
      }
      const locked = await failureOf(passwordAuth(user.email, user.password));
      expect(locked).toEqual({
        name: 'NotAuthorizedException',
        message: 'Password attempts exceeded',
        status: 400,
      });
      app.clock.advance(1100);
      expect((await fail(user)).message).toBe('Incorrect username or password.');
      // The sixth failure locks for 2 s.
      app.clock.advance(1100);
      expect((await failureOf(passwordAuth(user.email, user.password))).message).toBe(
        'Password attempts exceeded',
      );
      app.clock.advance(1000);
      await passwordAuth(user.email, user.password);
      // A success clears the count.
      expect((await fail(user)).message).toBe('Incorrect username or password.');
    });

    test('the lock doubles up to 15 minutes, and 15 quiet minutes forget the failures', async () => {
      const user = await app.createUser();
      const rightPassword = () => failureOf(passwordAuth(user.email, user.password));
      for (let failures = 1; failures <= 15; failures++) {
        expect((await fail(user)).message).toBe('Incorrect username or password.');
        if (failures < 5) continue;
        const lockMs = Math.min(2 ** (failures - 5), 900) * 1000;
        app.clock.advance(lockMs - 1);
        expect((await rightPassword()).message, `after ${failures} failures`).toBe(
          'Password attempts exceeded',
        );
        app.clock.advance(1);
      }
      // The fifteenth failure locked for the cap, 900 s, and the wait was 15 quiet minutes:
      // the next failure counts as the first again.
      expect((await fail(user)).message).toBe('Incorrect username or password.');
      await passwordAuth(user.email, user.password);
    });

    test('an unknown user is locked out exactly like a real one', async () => {
      const ghost = { email: uniqueEmail('ghost'), password: TEST_PASSWORD };
      for (let attempt = 0; attempt < 5; attempt++) await fail(ghost as TestUser);
      expect((await failureOf(passwordAuth(ghost.email, ghost.password))).message).toBe(
        'Password attempts exceeded',
      );
    });
  });
});

describe('per-IP limits', () => {
  test('too many failed sign-ins from one address at one account answer TooManyRequestsException "Rate exceeded"', async () => {
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
      const ghost = uniqueEmail('ghost');
      for (let index = 0; index < 3; index++) await failureOf(attempt(ghost, 'Wrong-Password-1'));
      expect(await failureOf(attempt(ghost, 'Wrong-Password-1'))).toEqual({
        name: 'TooManyRequestsException',
        message: 'Rate exceeded',
        status: 400,
      });
      // Another account from the same address is not refused.
      await attempt(user.email, user.password);
      app.clock.advance(61_000);
      expect((await failureOf(attempt(ghost, 'Wrong-Password-1'))).name).toBe(
        'NotAuthorizedException',
      );
    } finally {
      await app.close();
    }
  });

  test('password checks per address are capped, and the SDK’s default retries see the same answer', async () => {
    const app = await startTestApp({
      limits: { perIp: { passwordChecks: { limit: 2, windowSeconds: 60 } } },
    });
    try {
      const user = await app.createUser();
      await app.signIn(user);
      await app.signIn(user);
      const retrying = app.cognito({ maxAttempts: 3 });
      const failure = await retrying
        .send(
          new InitiateAuthCommand({
            AuthFlow: 'USER_PASSWORD_AUTH',
            ClientId: app.identity.clientId,
            AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
          }),
        )
        .catch((error: Error & { $metadata: { attempts?: number } }) => error);
      expect(failure).toMatchObject({
        name: 'TooManyRequestsException',
        $metadata: { attempts: 3 },
      });
    } finally {
      await app.close();
    }
  });

  test('token lifetimes come from IDP_ACCESS_TOKEN_TTL_SECONDS and IDP_REFRESH_TOKEN_TTL_SECONDS', async () => {
    const app = await startTestApp({
      env: { IDP_ACCESS_TOKEN_TTL_SECONDS: '5', IDP_REFRESH_TOKEN_TTL_SECONDS: '60' },
    });
    try {
      const user = await app.createUser();
      const tokens = await app.signIn(user);
      expect(tokens.ExpiresIn).toBe(5);
      const access = decodeJwt(tokens.AccessToken);
      expect((access.exp ?? 0) - (access.iat ?? 0)).toBe(5);
      const id = decodeJwt(tokens.IdToken);
      expect((id.exp ?? 0) - (id.iat ?? 0)).toBe(5);
      app.clock.advance(61_000);
      const failure = await failureOf(
        app.cognito().send(
          new InitiateAuthCommand({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: app.identity.clientId,
            AuthParameters: { REFRESH_TOKEN: tokens.RefreshToken },
          }),
        ),
      );
      expect(failure.message).toBe('Refresh Token has expired');
    } finally {
      await app.close();
    }
  });

  test('passwords are hashed with argon2id at IDP_PASSWORD_HASH_MEMORY_KIB and IDP_PASSWORD_HASH_PASSES', async () => {
    const app = await startTestApp({
      passwordHashCost: 'configured',
      env: { IDP_PASSWORD_HASH_MEMORY_KIB: '20480', IDP_PASSWORD_HASH_PASSES: '3' },
    });
    try {
      const user = await app.createUser();
      await app.signIn(user);
      const [row] = await app.database.db
        .select({ passwordHash: idpUsers.passwordHash })
        .from(idpUsers)
        .where(eq(idpUsers.sub, user.sub));
      expect(row?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=20480,t=3,p=1\$/u);
    } finally {
      await app.close();
    }
  });
});
