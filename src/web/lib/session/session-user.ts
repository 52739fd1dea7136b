import { accessTokenExpiry, readIdentityClaims, type TokenRecord } from '../token-storage.ts';
import type { SignedInUser } from './session-slice.ts';

/** The session user described by a token record, or null when its ID token is unreadable. */
export function userFromRecord(record: TokenRecord): SignedInUser | null {
  const claims = readIdentityClaims(record.IdToken);
  if (!claims) return null;
  return {
    id: claims.sub,
    firstName: claims.givenName,
    lastName: claims.familyName,
    email: claims.email,
    token: record.AccessToken,
    expires: accessTokenExpiry(record.AccessToken),
  };
}
