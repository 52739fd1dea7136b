import { decodeJwt } from 'jose';
import type { TokenRecord } from './token-record.ts';

/**
 * docs/product.md, "The session in the browser": the session lives in localStorage under the key
 * `token` as this record.
 */
export const TOKEN_STORAGE_KEY = 'token';

export type { TokenRecord };

export type IdentityClaims = {
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
};

export function readTokenRecord(): TokenRecord | null {
  let raw: string | null;
  try {
    raw = window.localStorage.getItem(TOKEN_STORAGE_KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (
      parsed &&
      typeof parsed === 'object' &&
      'AccessToken' in parsed &&
      typeof parsed.AccessToken === 'string' &&
      'IdToken' in parsed &&
      typeof parsed.IdToken === 'string'
    ) {
      const refresh =
        'RefreshToken' in parsed && typeof parsed.RefreshToken === 'string'
          ? parsed.RefreshToken
          : undefined;
      return { AccessToken: parsed.AccessToken, IdToken: parsed.IdToken, RefreshToken: refresh };
    }
  } catch {
    // A corrupt record is treated as no session; the next sign-in overwrites it.
  }
  return null;
}

export function writeTokenRecord(record: TokenRecord): void {
  window.localStorage.setItem(TOKEN_STORAGE_KEY, JSON.stringify(record));
}

export function clearTokenRecord(): void {
  try {
    window.localStorage.removeItem(TOKEN_STORAGE_KEY);
  } catch {
    // Storage can be unavailable (private mode); there is then nothing to clear.
  }
}

/** The access token's `exp` in milliseconds, or 0 when the token cannot be read. */
export function accessTokenExpiry(accessToken: string): number {
  try {
    const { exp } = decodeJwt(accessToken);
    return typeof exp === 'number' ? exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/**
 * Valid means: readable and its `exp` is in the future (docs/product.md,
 * "The session in the browser").
 */
export function isAccessTokenValid(accessToken: string, now = Date.now()): boolean {
  return accessTokenExpiry(accessToken) > now;
}

/** Reads the user's claims from the ID token (display only; the server verifies tokens). */
export function readIdentityClaims(idToken: string): IdentityClaims | null {
  try {
    const claims = decodeJwt(idToken);
    if (typeof claims.sub !== 'string') return null;
    return {
      sub: claims.sub,
      email: typeof claims.email === 'string' ? claims.email : '',
      givenName: typeof claims.given_name === 'string' ? claims.given_name : '',
      familyName: typeof claims.family_name === 'string' ? claims.family_name : '',
    };
  } catch {
    return null;
  }
}
