import { type KeyObject, randomUUID, sign } from 'node:crypto';
import type { SigningKeys } from './keys.ts';

/**
 * Access and ID tokens with Cognito's claim sets, in Cognito's claim order
 * (docs/product.md, "Tokens"). Both are RS256 JWTs whose header carries only `kid` and `alg`.
 *
 * Signed with node:crypto's callback form, which runs the RSA operation on libuv's thread pool
 * (~0.01 ms of event loop per token instead of ~0.35 ms signing synchronously): at ten concurrent
 * refreshes the event loop is the bottleneck (docs/PERFORMANCE.md, "Identity").
 */

export const ACCESS_TOKEN_SCOPE = 'aws.cognito.signin.user.admin';

export type TokenSubject = {
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
};

export type TokenSession = {
  originJti: string;
  eventId: string;
  clientId: string;
  /** Seconds since the epoch of the password sign-in; unchanged by refresh. */
  authTime: number;
};

export type IssueOptions = {
  keys: SigningKeys;
  issuer: string;
  /** Seconds since the epoch. */
  now: number;
  lifetimeSeconds: number;
};

export async function signAccessToken(
  subject: TokenSubject,
  session: TokenSession,
  options: IssueOptions,
): Promise<string> {
  const { kid, key } = options.keys.signingKey('access');
  return signJwt(kid, key, {
    sub: subject.sub,
    iss: options.issuer,
    client_id: session.clientId,
    origin_jti: session.originJti,
    event_id: session.eventId,
    token_use: 'access',
    scope: ACCESS_TOKEN_SCOPE,
    auth_time: session.authTime,
    exp: options.now + options.lifetimeSeconds,
    iat: options.now,
    jti: randomUUID(),
    username: subject.sub,
  });
}

export async function signIdToken(
  subject: TokenSubject,
  session: TokenSession,
  options: IssueOptions,
): Promise<string> {
  const { kid, key } = options.keys.signingKey('id');
  return signJwt(kid, key, {
    sub: subject.sub,
    email_verified: subject.emailVerified,
    iss: options.issuer,
    'cognito:username': subject.sub,
    ...(subject.givenName ? { given_name: subject.givenName } : {}),
    ...(subject.familyName ? { family_name: subject.familyName } : {}),
    origin_jti: session.originJti,
    aud: session.clientId,
    event_id: session.eventId,
    token_use: 'id',
    auth_time: session.authTime,
    exp: options.now + options.lifetimeSeconds,
    iat: options.now,
    jti: randomUUID(),
    email: subject.email,
  });
}

/** Compact JWS, RS256 (RSASSA-PKCS1-v1_5 with SHA-256), as RFC 7515/7518 define it. */
function signJwt(kid: string, key: KeyObject, claims: Record<string, unknown>): Promise<string> {
  const header = Buffer.from(JSON.stringify({ kid, alg: 'RS256' })).toString('base64url');
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  const input = `${header}.${payload}`;
  return new Promise((resolve, reject) => {
    sign('sha256', Buffer.from(input), key, (error, signature) => {
      if (error) reject(error);
      else resolve(`${input}.${signature.toString('base64url')}`);
    });
  });
}
