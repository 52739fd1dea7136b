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
      await refreshSession(dispatch);
    },
    async onUnauthorized(sentToken) {
      const record = readTokenRecord();
      if (!record?.RefreshToken) {
        dispatch(authStateChanged('FAILED'));
        return false;
      }
      // Another call refreshed while this one was on its way (calls sent together with a token
      // that expired in flight): retry with the token that refresh got instead of refreshing again.
      if (record.AccessToken !== sentToken) return true;
      const { refreshSession } = await import('./token-refresh.ts');
      return (await refreshSession(dispatch)) === 'refreshed';
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
