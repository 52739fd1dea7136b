import { type JWTPayload, type JWTVerifyGetKey, errors as joseErrors, jwtVerify } from 'jose';
import { type AccessTokenClaims, InvalidTokenError } from './port.ts';

/**
 * Verification of a Cognito access token, the same for a real pool and the embedded service
 * (docs/decisions/0006-token-verification.md): three-part JWS, `alg` RS256 only (so `none` and
 * HMAC tricks fail), a `kid` from the pool's JWKS, the signature, `exp` with a small leeway, `iss`
 * equal to the pool's issuer, `token_use` "access" and `client_id` among the accepted clients.
 * Access tokens carry no `aud`, so the client is checked by hand.
 */
export type AccessTokenVerifierOptions = {
  issuer: string;
  keys: JWTVerifyGetKey;
  /** Client ids whose tokens are accepted; 'any' lets the identity service accept all its clients. */
  clientIds: readonly string[] | 'any';
  /** Leeway for `exp` and `iat`, in seconds. */
  clockToleranceSeconds?: number;
  /** Milliseconds since the epoch; injectable for tests. */
  now?: () => number;
};

export type AccessTokenVerifier = (token: string) => Promise<AccessTokenClaims>;

const JWS_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
const MAX_TOKEN_LENGTH = 16_384;

export function createAccessTokenVerifier(
  options: AccessTokenVerifierOptions,
): AccessTokenVerifier {
  const tolerance = options.clockToleranceSeconds ?? 5;
  const now = options.now ?? Date.now;
  return async (token) => {
    if (token.length > MAX_TOKEN_LENGTH || !JWS_SHAPE.test(token)) {
      throw new InvalidTokenError('malformed', 'The token is not a JWT.');
    }
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        algorithms: ['RS256'],
        clockTolerance: tolerance,
        currentDate: new Date(now()),
        requiredClaims: ['sub', 'exp', 'iat'],
      }));
    } catch (error) {
      throw translate(error);
    }
    if (payload.token_use !== 'access') {
      throw new InvalidTokenError('claims', 'The token is not an access token.');
    }
    const clientId = payload.client_id;
    if (
      typeof clientId !== 'string' ||
      (options.clientIds !== 'any' && !options.clientIds.includes(clientId))
    ) {
      throw new InvalidTokenError('claims', 'The token was issued to another client.');
    }
    const { sub, username, scope, origin_jti: originJti, exp, iat } = payload;
    if (typeof sub !== 'string' || typeof exp !== 'number' || typeof iat !== 'number') {
      throw new InvalidTokenError('claims', 'The token lacks required claims.');
    }
    return {
      sub,
      username: typeof username === 'string' ? username : sub,
      clientId,
      scope: typeof scope === 'string' ? scope : '',
      issuedAt: iat,
      expiresAt: exp,
      originJti: typeof originJti === 'string' ? originJti : undefined,
    };
  };
}

function translate(error: unknown): InvalidTokenError {
  // The pool's JWKS could not be fetched or read: not the caller's fault, so not a 401.
  if (error instanceof joseErrors.JWKSTimeout || error instanceof joseErrors.JWKSInvalid)
    throw error;
  if (error instanceof joseErrors.JWTExpired)
    return new InvalidTokenError('expired', 'The token has expired.');
  if (
    error instanceof joseErrors.JWSSignatureVerificationFailed ||
    error instanceof joseErrors.JWKSNoMatchingKey ||
    error instanceof joseErrors.JWKSMultipleMatchingKeys
  ) {
    return new InvalidTokenError('signature', 'The token signature is not valid.');
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    return new InvalidTokenError('claims', `The token's ${error.claim} claim is not valid.`);
  }
  if (error instanceof joseErrors.JOSEError) {
    return new InvalidTokenError('malformed', 'The token is not a valid RS256 JWT.');
  }
  // Anything else (a JWKS fetch that failed, a bug) is not the caller's fault: let it surface.
  throw error;
}
