import type { MiddlewareHandler } from 'hono';
import {
  type AccessTokenClaims,
  type IdentityProvider,
  InvalidTokenError,
} from '../../identity/port.ts';
import { clientAddress } from '../../platform/client-address.ts';
import type { Logger } from '../../platform/logger.ts';
import { createRateWindow } from '../../platform/rate-window.ts';
import { jsonError } from './errors.ts';

/** What a signed-in request carries after requireAuth: the verified claims and the raw token. */
export type AuthVariables = { auth: { claims: AccessTokenClaims; accessToken: string } };
export type AuthEnv = { Variables: AuthVariables };

export type RequireAuthOptions = {
  identity: IdentityProvider;
  logger: Logger;
  /** Full paths (e.g. `/api/health`) answered without a token. */
  publicPaths: readonly string[];
  trustProxy: boolean;
  /**
   * Full paths that may be opened with `?ticket=` instead of a token (the live feed: EventSource
   * cannot set headers), and how a ticket yields its access token (null: not valid). The access
   * token itself is never taken from a URL.
   */
  tickets?: { paths: readonly string[]; redeem(ticket: string): Promise<string | null> };
  /** Requests with an invalid token one address may make per minute before 429. */
  invalidTokensPerMinute?: number;
};

/**
 * Every API request except `publicPaths` needs a valid access token in `Authorization`: the raw
 * token, as the web app sends it (docs/product.md, "The product API"), or `Bearer <token>`. A
 * missing or bad token is a 401 in the JSON error shape; an address that keeps sending bad tokens
 * gets 429 for them for a minute, while valid tokens from it keep working.
 */
export function requireAuth(options: RequireAuthOptions): MiddlewareHandler<AuthEnv> {
  const publicPaths = new Set(options.publicPaths);
  const ticketPaths = new Set(options.tickets?.paths ?? []);
  const failures = createRateWindow({
    limit: options.invalidTokensPerMinute ?? 60,
    windowMs: 60_000,
  });

  return async (c, next) => {
    if (publicPaths.has(c.req.path)) return next();
    const address = clientAddress(c, options.trustProxy);
    // A valid token is never refused by the failure counter: people behind one address (an
    // office, a carrier's NAT) must not be locked out by someone else's bad tokens. Checking a
    // token is cheap, so the counter only turns further invalid ones into 429s.
    const refuseInvalid = () => {
      c.header('Retry-After', '60');
      return jsonError(
        c,
        'RATE_LIMITED',
        'Too many requests with an invalid access token. Try again in a minute.',
      );
    };
    let accessToken = readToken(c.req.header('authorization'));
    const ticket = ticketPaths.has(c.req.path) ? c.req.query('ticket') : undefined;
    if (!accessToken && ticket !== undefined && options.tickets) {
      accessToken = (await options.tickets.redeem(ticket)) ?? undefined;
      if (!accessToken) {
        if (failures.exceeded(address)) return refuseInvalid();
        failures.hit(address);
        return jsonError(
          c,
          'UNAUTHORIZED',
          'The stream ticket is not valid, has expired or was used. Ask for a new one.',
        );
      }
    }
    if (!accessToken) {
      if (failures.exceeded(address)) return refuseInvalid();
      c.header('WWW-Authenticate', 'Bearer realm="earshot"');
      return jsonError(
        c,
        'UNAUTHORIZED',
        'Sign in to continue: this request needs an access token.',
      );
    }
    let claims: AccessTokenClaims;
    try {
      claims = await options.identity.verifyAccessToken(accessToken);
    } catch (error) {
      if (!(error instanceof InvalidTokenError)) {
        options.logger.error({ err: error }, 'access token verification failed');
        return jsonError(
          c,
          'UNAVAILABLE',
          'Sign-in cannot be checked right now. Please try again in a moment.',
        );
      }
      if (failures.exceeded(address)) return refuseInvalid();
      failures.hit(address);
      c.header('WWW-Authenticate', 'Bearer realm="earshot", error="invalid_token"');
      const message =
        error.reason === 'expired'
          ? 'Your session has expired. Sign in again.'
          : error.reason === 'revoked'
            ? 'You have been signed out. Sign in again.'
            : 'The access token is not valid. Sign in again.';
      return jsonError(c, 'UNAUTHORIZED', message, { reason: error.reason });
    }
    c.set('auth', { claims, accessToken });
    return next();
  };
}

/** `eyJ…` or `Bearer eyJ…` → the token; anything else → undefined. */
export function readToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const bearer = /^Bearer\s+(\S+)$/i.exec(value);
  if (bearer) return bearer[1];
  return /^\S+$/.test(value) ? value : undefined;
}
