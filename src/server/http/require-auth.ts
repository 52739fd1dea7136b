import type { Context, MiddlewareHandler } from 'hono';
import { looksLikeApiKey } from '../../core/api-keys/api-key-secret.ts';
import type { ApiKeyCheck } from '../../core/api-keys/authenticate-api-key.ts';
import {
  type AccessTokenClaims,
  type IdentityProvider,
  InvalidTokenError,
} from '../../identity/port.ts';
import { clientAddress } from '../../platform/client-address.ts';
import type { Logger } from '../../platform/logger.ts';
import { createRateWindow } from '../../platform/rate-window.ts';
import type { ApiKeyScope } from '../../shared/api-keys.ts';
import { apiKeyAccess, scopeAllows } from './api-key-access.ts';
import { jsonError } from './errors.ts';

/**
 * What a signed-in request carries after requireAuth: the verified claims and the raw token, or
 * with an API key the key's owner as `claims.sub` and the key (whose `accessToken` is the key:
 * the routes that use it, account routes, never see a key).
 */
export type AuthVariables = {
  auth: {
    claims: AccessTokenClaims;
    accessToken: string;
    apiKey?: { id: string; scope: ApiKeyScope };
  };
};
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
  /** API keys (`esk_…`): how one is checked, and the requests one key may make per minute. */
  apiKeys?: { authenticate(key: string): Promise<ApiKeyCheck>; requestsPerMinute: number };
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
  const keyRequests = createRateWindow({
    limit: options.apiKeys?.requestsPerMinute ?? 600,
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
    if (looksLikeApiKey(accessToken) && options.apiKeys) {
      return answerWithApiKey(c, accessToken, options.apiKeys, {
        next,
        onInvalid: () => {
          if (failures.exceeded(address)) return refuseInvalid();
          failures.hit(address);
          return undefined;
        },
        limit: (keyId) => keyRequests.hit(keyId),
      });
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

/**
 * A request with an API key: refused (401) when the key is unknown or revoked, 403 on a route
 * outside its scope (docs/decisions/0029-api-keys.md), 429 past the key's requests a minute.
 */
async function answerWithApiKey(
  c: Context<AuthEnv>,
  key: string,
  apiKeys: NonNullable<RequireAuthOptions['apiKeys']>,
  hooks: {
    next: () => Promise<void>;
    onInvalid: () => Response | undefined;
    limit: (keyId: string) => { allowed: boolean; retryAfterSeconds: number };
  },
) {
  const access = apiKeyAccess(c.req.method, c.req.path);
  if (access === 'account') {
    return jsonError(
      c,
      'FORBIDDEN',
      'API keys do not work on account routes (profile, email, password, deletion, API keys, live feed). Sign in to the web app for these.',
    );
  }
  const check = await apiKeys.authenticate(key);
  if (!check.ok) {
    const refused = hooks.onInvalid();
    if (refused) return refused;
    c.header('WWW-Authenticate', 'Bearer realm="earshot", error="invalid_token"');
    return jsonError(
      c,
      'UNAUTHORIZED',
      check.reason === 'revoked'
        ? 'This API key was revoked. Create a new one in Settings → API keys.'
        : 'The API key is not valid. Check that it was copied whole, or create a new one in Settings → API keys.',
      { reason: check.reason === 'revoked' ? 'revoked' : 'api_key' },
    );
  }
  const { keyId, userId, scope } = check.key;
  if (!scopeAllows(scope, access)) {
    return jsonError(
      c,
      'FORBIDDEN',
      'This API key can only read. Create a key with the write scope to change monitors or matches.',
      { scope },
    );
  }
  const { allowed, retryAfterSeconds } = hooks.limit(keyId);
  if (!allowed) {
    c.header('Retry-After', String(retryAfterSeconds));
    return jsonError(
      c,
      'RATE_LIMITED',
      `Too many requests with this API key. Try again in ${retryAfterSeconds} seconds.`,
      { retryAfterSeconds },
    );
  }
  c.set('auth', {
    claims: {
      sub: userId,
      username: userId,
      clientId: 'api-key',
      scope,
      issuedAt: 0,
      expiresAt: 0,
      originJti: undefined,
    },
    accessToken: key,
    apiKey: { id: keyId, scope },
  });
  await hooks.next();
  return undefined;
}

/** `eyJ…` or `Bearer eyJ…` → the token; anything else → undefined. */
export function readToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const value = header.trim();
  const bearer = /^Bearer\s+(\S+)$/i.exec(value);
  if (bearer) return bearer[1];
  return /^\S+$/.test(value) ? value : undefined;
}
