import {
  type CryptoKey,
  createLocalJWKSet,
  errors,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
} from 'jose';
import { beforeAll, describe, expect, test } from 'vitest';
import { InvalidTokenError } from './port.ts';
import { createAccessTokenVerifier } from './verify-access-token.ts';

const ISSUER = 'https://cognito-idp.us-east-2.amazonaws.com/us-east-2_Test12345';
const CLIENT = 'abcdefghijklmnopqrstuvwxyz';
const NOW = 1_800_000_000;

describe('createAccessTokenVerifier', () => {
  let key: CryptoKey;
  let verify: ReturnType<typeof createAccessTokenVerifier>;

  const claims = (overrides: Record<string, unknown> = {}) => ({
    sub: '11111111-2222-4333-8444-555555555555',
    iss: ISSUER,
    client_id: CLIENT,
    origin_jti: '66666666-7777-4888-9999-000000000000',
    token_use: 'access',
    scope: 'aws.cognito.signin.user.admin',
    auth_time: NOW,
    exp: NOW + 3600,
    iat: NOW,
    jti: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    username: '11111111-2222-4333-8444-555555555555',
    ...overrides,
  });
  const sign = (payload: Record<string, unknown>, signer: CryptoKey = key, kid = 'k1') =>
    new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(signer);
  const reason = async (token: string) => {
    const error = await verify(token).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidTokenError);
    return (error as InvalidTokenError).reason;
  };

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    key = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
    verify = createAccessTokenVerifier({
      issuer: ISSUER,
      keys: createLocalJWKSet({ keys: [jwk] }),
      clientIds: [CLIENT],
      now: () => NOW * 1000,
    });
  });

  test('returns the claims of a valid access token', async () => {
    expect(await verify(await sign(claims()))).toEqual({
      sub: '11111111-2222-4333-8444-555555555555',
      username: '11111111-2222-4333-8444-555555555555',
      clientId: CLIENT,
      scope: 'aws.cognito.signin.user.admin',
      issuedAt: NOW,
      expiresAt: NOW + 3600,
      originJti: '66666666-7777-4888-9999-000000000000',
    });
  });

  test('refuses alg none, another key, an unknown kid and HS256', async () => {
    expect(await reason(new UnsecuredJWT(claims()).encode())).toBe('malformed');
    expect(await reason(await sign(claims(), (await generateKeyPair('RS256')).privateKey))).toBe(
      'signature',
    );
    expect(await reason(await sign(claims(), key, 'k2'))).toBe('signature');
    const hs = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .sign(new Uint8Array(32));
    expect(await reason(hs)).toBe('malformed');
  });

  test('allows 5 s of clock skew on exp, no more', async () => {
    await verify(await sign(claims({ exp: NOW - 4 })));
    expect(await reason(await sign(claims({ exp: NOW - 6 })))).toBe('expired');
  });

  test('checks iss, token_use and client_id', async () => {
    expect(await reason(await sign(claims({ iss: `${ISSUER}x` })))).toBe('claims');
    expect(await reason(await sign(claims({ token_use: 'id', aud: CLIENT })))).toBe('claims');
    expect(await reason(await sign(claims({ client_id: 'someoneelse' })))).toBe('claims');
    const { client_id: _, ...withoutClient } = claims();
    expect(await reason(await sign(withoutClient))).toBe('claims');
    const { sub: __, ...withoutSub } = claims();
    expect(await reason(await sign(withoutSub))).toBe('claims');
  });

  test('refuses what is not a JWT before any crypto', async () => {
    for (const token of [
      '',
      'abc',
      'a.b',
      'a.b.c.d',
      'é.é.é',
      `${'a'.repeat(9000)}.${'b'.repeat(9000)}.c`,
    ]) {
      expect(await reason(token)).toBe('malformed');
    }
  });

  test('a JWKS that cannot be fetched is an outage, not a bad token', async () => {
    const broken = createAccessTokenVerifier({
      issuer: ISSUER,
      keys: async () => {
        throw new errors.JWKSTimeout();
      },
      clientIds: 'any',
      now: () => NOW * 1000,
    });
    const error = await broken(await sign(claims())).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(errors.JWKSTimeout);
  });
});
