import { randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';

/**
 * A token record shaped like the identity provider's, signed by a throwaway key. Only for
 * browser tests of the shell that never send it to the API (the API would refuse it).
 */
export async function createUnverifiableTokenRecord(options: {
  expiresInSeconds: number;
  givenName?: string;
  familyName?: string;
  email?: string;
}) {
  const { privateKey } = await generateKeyPair('RS256');
  const now = Math.floor(Date.now() / 1000);
  const sub = randomUUID();
  const exp = now + options.expiresInSeconds;
  const access = await new SignJWT({ token_use: 'access', client_id: 'test', username: sub })
    .setProtectedHeader({ alg: 'RS256', kid: 'test' })
    .setSubject(sub)
    .setIssuedAt(now - 60)
    .setExpirationTime(exp)
    .sign(privateKey);
  const id = await new SignJWT({
    token_use: 'id',
    email: options.email ?? 'ada@example.com',
    given_name: options.givenName ?? 'Ada',
    family_name: options.familyName ?? 'Lovelace',
  })
    .setProtectedHeader({ alg: 'RS256', kid: 'test' })
    .setSubject(sub)
    .setIssuedAt(now - 60)
    .setExpirationTime(exp)
    .sign(privateKey);
  return { AccessToken: access, RefreshToken: `refresh-${randomUUID()}`, IdToken: id };
}
