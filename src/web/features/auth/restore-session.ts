import { createAsyncThunk } from '@reduxjs/toolkit';
import { identifyUser } from '../../lib/analytics.ts';
import {
  accessTokenExpiry,
  clearTokenRecord,
  isAccessTokenValid,
  readIdentityClaims,
  readTokenRecord,
  type TokenRecord,
} from '../../lib/token-storage.ts';
import { authStateChanged, type SignedInUser, sessionRestored } from './session-slice.ts';

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

/**
 * On load: a stored record with a valid access token gives VALID_TOKEN; anything else FAILED.
 * (The accounts feature extends this with REFRESHING_TOKEN for an expired token.)
 */
export const restoreSession = createAsyncThunk<void, undefined>(
  'session/restore',
  async (_arg, { dispatch }) => {
    const record = readTokenRecord();
    const user = record && isAccessTokenValid(record.AccessToken) ? userFromRecord(record) : null;
    if (user) {
      dispatch(sessionRestored(user));
      identifyUser(user.id, user.email);
      return;
    }
    if (record && !user) clearTokenRecord();
    dispatch(authStateChanged('FAILED'));
  },
);
