import {
  type CryptoKey,
  decodeJwt,
  decodeProtectedHeader,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCognitoProvider } from '../../src/identity/cognito/create-cognito-provider.ts';
import { InvalidTokenError } from '../../src/identity/port.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// The API's side of sign-in: which access tokens /api accepts. Every refusal is a 401 in the JSON
// error shape.
describe('API token verification', () => {
  let app: TestApp;
  let valid: string;
  let idToken: string;
  beforeAll(async () => {
    app = await startTestApp();
    const user = await app.createUser();
    const tokens = await app.signIn(user);
    valid = tokens.AccessToken;
    idToken = tokens.IdToken;
  });
  afterAll(() => app.close());

  async function expectUnauthorized(authorization: string | undefined) {
    const response = await fetch(`${app.url}/api/user`, {
      headers: authorization === undefined ? {} : { Authorization: authorization },
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer realm="earshot"/);
    const error = await apiErrorOf(response);
    expect(error).toMatchObject({ code: 'UNAUTHORIZED', message: expect.any(String) });
    return error as typeof error & { details?: { reason: string } };
  }

  /** The valid token's claims, re-signed by `key` with `header`, after `change`. */
  async function forge(
    change: (claims: Record<string, unknown>) => void,
    key?: CryptoKey,
    kid?: string,
  ) {
    const claims = { ...decodeJwt(valid) } as Record<string, unknown>;
    change(claims);
    const signer = key ?? (await generateKeyPair('RS256')).privateKey;
    return new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: kid ?? decodeProtectedHeader(valid).kid ?? '' })
      .sign(signer);
  }

  test('a valid access token is accepted raw, as the web app sends it, and as Bearer', async () => {
    for (const authorization of [valid, `Bearer ${valid}`, `bearer ${valid}`]) {
      const response = await fetch(`${app.url}/api/user`, {
        headers: { Authorization: authorization },
      });
      expect(response.status, authorization.slice(0, 10)).toBe(404);
      expect((await apiErrorOf(response)).code).toBe('NOT_FOUND');
    }
  });

  test('no token → 401', async () => {
    await expectUnauthorized(undefined);
    await expectUnauthorized('');
    await expectUnauthorized('Bearer');
    await expectUnauthorized('Bearer two parts');
  });

  test('alg "none" → 401', async () => {
    const unsigned = new UnsecuredJWT(decodeJwt(valid)).encode();
    const error = await expectUnauthorized(unsigned);
    expect(error.details?.reason).toBe('malformed');
  });

  test('a token signed by another key with the right kid → 401', async () => {
    const error = await expectUnauthorized(await forge(() => {}));
    expect(error.details?.reason).toBe('signature');
    await expectUnauthorized(await forge(() => {}, undefined, 'some-other-kid'));
  });

  test('HS256 signed with the public key as the secret → 401', async () => {
    const jwks = (await (await fetch(`${app.identity.issuer}/.well-known/jwks.json`)).json()) as {
      keys: unknown[];
    };
    const secret = new TextEncoder().encode(JSON.stringify(jwks.keys[0]));
    const token = await new SignJWT(decodeJwt(valid))
      .setProtectedHeader({ alg: 'HS256', kid: decodeProtectedHeader(valid).kid ?? '' })
      .sign(secret);
    await expectUnauthorized(token);
  });

  test('an expired token → 401 (after the 5 s leeway)', async () => {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    app.clock.advance(3600_000 + 4000);
    expect((await app.api('/api/user', { token: AccessToken })).status).toBe(404);
    app.clock.advance(2000);
    const error = await expectUnauthorized(AccessToken);
    expect(error.details?.reason).toBe('expired');
    expect(error.message).toBe('Your session has expired. Sign in again.');
    app.clock.set(Date.now());
  });

  test('an ID token used as an access token → 401', async () => {
    const error = await expectUnauthorized(idToken);
    expect(error.details?.reason).toBe('claims');
  });

  test('another client’s token (same pool, same keys) → 401', async () => {
    const other = await app.identity.admin.createAppClient({
      name: 'another app',
      withSecret: false,
    });
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user, other.clientId);
    expect(decodeJwt(AccessToken).client_id).toBe(other.clientId);
    const error = await expectUnauthorized(AccessToken);
    expect(error.details?.reason).toBe('claims');
  });

  test('garbage → 401, never 500', async () => {
    for (const garbage of [
      'x',
      'a.b.c',
      `${valid}x`,
      valid.split('.').slice(0, 2).join('.'),
      'é'.repeat(10),
      'A'.repeat(12_000),
    ]) {
      await expectUnauthorized(garbage);
    }
  });

  test('health and config need no token; every known endpoint needs one', async () => {
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/config`)).status).toBe(200);
    for (const method of ['GET', 'PUT', 'POST', 'DELETE']) {
      expect((await fetch(`${app.url}/api/user`, { method })).status, method).toBe(401);
    }
  });

  test('an address that keeps sending bad tokens gets 429', async () => {
    const flood = await startTestApp();
    try {
      let last = 0;
      for (let index = 0; index < 61; index++) {
        last = (await flood.api('/api/user', { token: `bad.token.${index}` })).status;
      }
      expect(last).toBe(429);
      const error = await apiErrorOf(await flood.api('/api/user', { token: 'bad.token.x' }));
      expect(error.code).toBe('RATE_LIMITED');
    } finally {
      await flood.close();
    }
  });
});

// The real-Cognito provider runs the same verification against a pool's published JWKS and
// reads attributes with GetUser. Pointed at the embedded service, it must behave the same.
describe('the Cognito provider against a Cognito-compatible endpoint', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test('verifies the web client’s tokens, refuses others, and reads the profile with GetUser', async () => {
    const provider = createCognitoProvider({
      region: 'us-east-2',
      userPoolId: app.identity.userPoolId,
      clientId: app.identity.clientId,
      endpoint: app.idpEndpoint,
      issuer: app.identity.issuer,
      now: () => app.clock.now().getTime(),
    });
    try {
      const user = await app.createUser({ givenName: 'Katherine', familyName: 'Johnson' });
      const tokens = await app.signIn(user);
      const claims = await provider.verifyAccessToken(tokens.AccessToken);
      expect(claims).toMatchObject({
        sub: user.sub,
        clientId: app.identity.clientId,
        username: user.sub,
      });
      expect(await provider.fetchProfile(tokens.AccessToken)).toEqual({
        sub: user.sub,
        email: user.email,
        emailVerified: true,
        givenName: 'Katherine',
        familyName: 'Johnson',
      });
      await expect(provider.verifyAccessToken(tokens.IdToken)).rejects.toBeInstanceOf(
        InvalidTokenError,
      );
      const other = await app.identity.admin.createAppClient({ name: 'other', withSecret: false });
      const foreign = await app.signIn(user, other.clientId);
      await expect(provider.verifyAccessToken(foreign.AccessToken)).rejects.toMatchObject({
        reason: 'claims',
      });
      expect(provider.publicSettings('http://ignored')).toEqual({
        endpoint: app.idpEndpoint,
        region: 'us-east-2',
        userPoolId: app.identity.userPoolId,
        clientId: app.identity.clientId,
      });
      expect(provider.connectOrigins()).toEqual([app.url]);
    } finally {
      await provider.close();
    }
  });

  test('by default it points at AWS: endpoint, issuer and CSP origin', async () => {
    const provider = createCognitoProvider({
      region: 'eu-west-1',
      userPoolId: 'eu-west-1_AbCdEf123',
      clientId: 'a'.repeat(26),
    });
    expect(provider.publicSettings('http://ignored').endpoint).toBe(
      'https://cognito-idp.eu-west-1.amazonaws.com',
    );
    expect(provider.connectOrigins()).toEqual(['https://cognito-idp.eu-west-1.amazonaws.com']);
    expect(provider.routes).toBeNull();
    await provider.close();
  });
});
