import type { Hono } from 'hono';

/** What the browser needs to talk to the identity provider (served by GET /api/config). */
export type PublicIdentitySettings = {
  endpoint: string;
  region: string;
  userPoolId: string;
  clientId: string;
};

/** The claims of a verified Cognito access token that the API relies on. */
export type AccessTokenClaims = {
  sub: string;
  username: string;
  clientId: string;
  scope: string;
  issuedAt: number;
  expiresAt: number;
  originJti: string | undefined;
};

/**
 * The identity provider as the rest of the server sees it: the embedded Cognito-compatible
 * service or a real Cognito user pool. The API never knows which one it talks to.
 */
export type IdentityProvider = {
  kind: 'embedded' | 'cognito';
  /** `origin` is the origin the browser used, for the embedded endpoint when PUBLIC_URL is unset. */
  publicSettings(origin: string): PublicIdentitySettings;
  /** Origins the browser must be allowed to reach (Content-Security-Policy connect-src). */
  connectOrigins(): string[];
  /** Resolves the claims, or throws InvalidTokenError. */
  verifyAccessToken(token: string): Promise<AccessTokenClaims>;
  /** The embedded service's HTTP app, mounted at /idp; null with a real Cognito pool. */
  routes: Hono | null;
  close(): Promise<void>;
};

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
}
