import { createHash } from 'node:crypto';
import {
  CognitoIdentityProviderClient,
  GetUserCommand,
  NotAuthorizedException,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { createRemoteJWKSet } from 'jose';
import { type IdentityProfile, type IdentityProvider, InvalidTokenError } from '../port.ts';
import { createAccessTokenVerifier } from '../verify-access-token.ts';

export type CognitoProviderOptions = {
  region: string;
  userPoolId: string;
  clientId: string;
  /** For tests against a stand-in; defaults to https://cognito-idp.<region>.amazonaws.com. */
  endpoint?: string;
  /** Defaults to `${endpoint}/${userPoolId}`, Cognito's issuer. */
  issuer?: string;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
  /** How long a session GetUser confirmed live is trusted again without asking (default 10 s). */
  sessionCheckSeconds?: number;
};

const SESSION_CACHE_LIMIT = 10_000;

/**
 * A real Cognito user pool: the browser talks to AWS directly; the server verifies access
 * tokens against the pool's published JWKS (fetched once, cached, refetched on an unknown kid),
 * reads the signed-in user's attributes with GetUser, and before destructive or account-changing
 * requests asks GetUser whether the token's session is still live (cached for seconds), since a
 * signature cannot show a GlobalSignOut (docs/decisions/0006-token-verification.md).
 */
export function createCognitoProvider(options: CognitoProviderOptions): IdentityProvider {
  const endpoint = (
    options.endpoint ?? `https://cognito-idp.${options.region}.amazonaws.com`
  ).replace(/\/+$/, '');
  const issuer = options.issuer ?? `${endpoint}/${options.userPoolId}`;
  const jwks = createRemoteJWKSet(new URL(`${issuer}/.well-known/jwks.json`), {
    cooldownDuration: 30_000,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 5000,
  });
  const verifyAccessToken = createAccessTokenVerifier({
    issuer,
    keys: jwks,
    clientIds: [options.clientId],
    ...(options.now ? { now: options.now } : {}),
  });
  const client = new CognitoIdentityProviderClient({
    region: options.region,
    endpoint,
    maxAttempts: 2,
  });

  // sha256(token) → until when GetUser last confirmed it (ms on the provider's clock).
  const liveSessions = new Map<string, number>();
  const now = options.now ?? Date.now;
  const sessionCheckMs = (options.sessionCheckSeconds ?? 10) * 1000;

  async function getUser(accessToken: string) {
    try {
      const answer = await client.send(new GetUserCommand({ AccessToken: accessToken }));
      if (liveSessions.size >= SESSION_CACHE_LIMIT) liveSessions.clear();
      liveSessions.set(tokenKey(accessToken), now() + sessionCheckMs);
      return answer;
    } catch (error) {
      liveSessions.delete(tokenKey(accessToken));
      if (error instanceof NotAuthorizedException || error instanceof UserNotFoundException) {
        throw new InvalidTokenError('revoked', error.message);
      }
      throw error;
    }
  }

  return {
    kind: 'cognito',
    publicSettings: () => ({
      endpoint,
      region: options.region,
      userPoolId: options.userPoolId,
      clientId: options.clientId,
    }),
    connectOrigins: () => [new URL(endpoint).origin],
    verifyAccessToken,
    async verifySession(accessToken) {
      const until = liveSessions.get(tokenKey(accessToken));
      if (until !== undefined && until > now()) return;
      await getUser(accessToken);
    },
    async fetchProfile(accessToken): Promise<IdentityProfile> {
      const answer = await getUser(accessToken);
      const attributes = new Map(
        (answer.UserAttributes ?? []).map((item) => [item.Name, item.Value ?? '']),
      );
      return {
        sub: attributes.get('sub') ?? answer.Username ?? '',
        email: attributes.get('email') ?? '',
        emailVerified: attributes.get('email_verified') === 'true',
        givenName: attributes.get('given_name') ?? '',
        familyName: attributes.get('family_name') ?? '',
      };
    },
    routes: null,
    async close() {
      client.destroy();
    },
  };
}

function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}
