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
  /** Seconds since the epoch. */
  issuedAt: number;
  /** Seconds since the epoch. */
  expiresAt: number;
  /** The sign-in session the token belongs to (Cognito's revocation key). */
  originJti: string | undefined;
};

/** The identity's attributes as the provider holds them (Cognito's GetUser). */
export type IdentityProfile = {
  sub: string;
  email: string;
  emailVerified: boolean;
  givenName: string;
  familyName: string;
};

/**
 * The identity provider as the rest of the server sees it: the embedded Cognito-compatible
 * service or a real Cognito user pool. The API never knows which one it talks to.
 */
export type IdentityProvider = {
  kind: 'embedded' | 'cognito';
  /** `origin` is the configured public URL (PUBLIC_URL or http://HOST:PORT), never a request header. */
  publicSettings(origin: string): PublicIdentitySettings;
  /** Origins the browser must be allowed to reach (Content-Security-Policy connect-src). */
  connectOrigins(): string[];
  /**
   * Resolves the claims of an access token issued to the web app's client, or throws
   * InvalidTokenError. The embedded provider also refuses tokens of a signed-out session; with a
   * real Cognito pool revocation is not visible until the token expires
   * (docs/decisions/0006-token-verification.md).
   */
  verifyAccessToken(token: string): Promise<AccessTokenClaims>;
  /**
   * Before destructive or account-changing requests: throws InvalidTokenError('revoked') unless
   * the provider still holds the token's session as live. The embedded provider already checks
   * this in verifyAccessToken; with a real pool it costs a GetUser, cached for a few seconds.
   */
  verifySession(accessToken: string): Promise<void>;
  /** The attributes of the identity an (already verified) access token belongs to. */
  fetchProfile(accessToken: string): Promise<IdentityProfile>;
  /** The embedded service's HTTP app, mounted at /idp; null with a real Cognito pool. */
  routes: Hono | null;
  close(): Promise<void>;
};

export type InvalidTokenReason =
  | 'missing'
  | 'malformed'
  | 'signature'
  | 'expired'
  | 'claims'
  | 'revoked';

export class InvalidTokenError extends Error {
  override name = 'InvalidTokenError';
  readonly reason: InvalidTokenReason;

  constructor(reason: InvalidTokenReason, message: string) {
    super(message);
    this.reason = reason;
  }
}
