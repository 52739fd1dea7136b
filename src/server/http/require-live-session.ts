import type { MiddlewareHandler } from 'hono';
import { type IdentityProvider, InvalidTokenError } from '../../identity/port.ts';
import { jsonError } from './errors.ts';
import type { AuthEnv } from './require-auth.ts';

/**
 * For the destructive and account-changing routes it is mounted on: the token's session must
 * still be live at the identity provider. requireAuth's check is signature-only
 * with a real Cognito pool, so a token signed out with GlobalSignOut or a password change would
 * otherwise keep working here until it expires (docs/decisions/0006-token-verification.md).
 */
export function requireLiveSession(identity: IdentityProvider): MiddlewareHandler<AuthEnv> {
  return async (c, next) => {
    try {
      await identity.verifySession(c.get('auth').accessToken);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) throw error;
      c.header('WWW-Authenticate', 'Bearer realm="earshot", error="invalid_token"');
      return jsonError(c, 'UNAUTHORIZED', 'You have been signed out. Sign in again.', {
        reason: 'revoked',
      });
    }
    return next();
  };
}
