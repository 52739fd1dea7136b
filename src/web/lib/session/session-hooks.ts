import type { Dispatch } from '@reduxjs/toolkit';
import { installSessionHooks } from '../api.ts';
import {
  clearTokenRecord,
  isAccessTokenValid,
  readTokenRecord,
  TOKEN_STORAGE_KEY,
} from '../token-storage.ts';
import { authStateChanged, loggedOut } from './session-slice.ts';

/**
 * Connects the session to the API layer: refresh before a call whose token has expired, refresh
 * (once for all calls refused together) and retry once when the API still answers 401, and follow sign-outs made in other tabs.
 */
export function connectSessionToApi(dispatch: Dispatch): () => void {
  installSessionHooks({
    async beforeRequest() {
      const record = readTokenRecord();
      if (!record || isAccessTokenValid(record.AccessToken)) return;
      const { refreshSession } = await import('./token-refresh.ts');
      await refreshSession(dispatch, record.AccessToken);
    },
    async onUnauthorized(sentToken) {
      const record = readTokenRecord();
      if (!record?.RefreshToken) {
        dispatch(authStateChanged('FAILED'));
        return false;
      }
      // When another call refreshed while this one was on its way (calls sent together with a
      // token that expired in flight), the retry takes the token that refresh got.
      const { refreshSession } = await import('./token-refresh.ts');
      return (await refreshSession(dispatch, sentToken)) === 'refreshed';
    },
    onRejected() {
      clearTokenRecord();
      dispatch(authStateChanged('FAILED'));
    },
  });

  const onStorage = (event: StorageEvent) => {
    if (event.key === TOKEN_STORAGE_KEY && event.newValue === null) {
      dispatch(loggedOut());
      dispatch(authStateChanged('FAILED'));
    }
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
