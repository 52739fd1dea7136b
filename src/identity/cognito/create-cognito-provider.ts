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
};

/**
 * A real Cognito user pool: the browser talks to AWS directly; the server only verifies access
 * tokens against the pool's published JWKS (fetched once, cached, refetched on an unknown kid)
 * and reads the signed-in user's attributes with GetUser when it creates the user record.
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
    async fetchProfile(accessToken): Promise<IdentityProfile> {
      try {
        const answer = await client.send(new GetUserCommand({ AccessToken: accessToken }));
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
      } catch (error) {
        if (error instanceof NotAuthorizedException || error instanceof UserNotFoundException) {
          throw new InvalidTokenError('revoked', error.message);
        }
        throw error;
      }
    },
    routes: null,
    async close() {
      client.destroy();
    },
  };
}
