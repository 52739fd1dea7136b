import { createAsyncThunk } from '@reduxjs/toolkit';
import { identifyUser } from '../analytics.ts';
import {
  clearTokenRecord,
  isAccessTokenValid,
  readIdentityClaims,
  readTokenRecord,
} from '../token-storage.ts';
import { authStateChanged, sessionRestored } from './session-slice.ts';
import { userFromRecord } from './session-user.ts';

/**
 * On load (docs/product.md, "The session in the browser"): a valid access token gives VALID_TOKEN;
 * an expired one with a refresh token gives REFRESHING_TOKEN, then VALID_TOKEN or, when the
 * provider refuses, FAILED; no record gives FAILED.
 */
export const restoreSession = createAsyncThunk<void, undefined>(
  'session/restore',
  async (_arg, { dispatch }) => {
    const record = readTokenRecord();
    if (record && isAccessTokenValid(record.AccessToken)) {
      const user = userFromRecord(record);
      if (user) {
        dispatch(sessionRestored(user));
        identifyUser(user.id, user.email);
        return;
      }
    }
    if (record?.RefreshToken && readIdentityClaims(record.IdToken)) {
      dispatch(authStateChanged('REFRESHING_TOKEN'));
      // Imported here so the identity SDK loads only when a refresh is needed.
      const { refreshSession } = await import('./token-refresh.ts');
      const outcome = await refreshSession(dispatch, record.AccessToken);
      if (outcome !== 'refreshed') dispatch(authStateChanged('FAILED'));
      return;
    }
    if (record) clearTokenRecord();
    dispatch(authStateChanged('FAILED'));
  },
);
