import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKeys } from './keys.ts';

/**
 * Access and ID tokens with Cognito's claim sets, in Cognito's claim order
 * (cognito-protocol.md §3.1–3.2). Both are RS256 JWTs whose header carries only `kid` and `alg`.
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
  return new SignJWT({
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
  })
    .setProtectedHeader({ kid, alg: 'RS256' })
    .sign(key);
}

export async function signIdToken(
  subject: TokenSubject,
  session: TokenSession,
  options: IssueOptions,
): Promise<string> {
  const { kid, key } = options.keys.signingKey('id');
  return new SignJWT({
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
  })
    .setProtectedHeader({ kid, alg: 'RS256' })
    .sign(key);
}
