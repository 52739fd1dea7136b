import type { Dispatch } from '@reduxjs/toolkit';
import { identifyUser } from '../analytics.ts';
import { refreshTokens } from '../identity-client.ts';
import { errorName } from '../identity-errors.ts';
import { clearTokenRecord, readTokenRecord, writeTokenRecord } from '../token-storage.ts';
import { createSessionRefresher, type RefreshOutcome } from './session-refresher.ts';
import { authStateChanged, sessionRestored } from './session-slice.ts';
import { userFromRecord } from './session-user.ts';

export type { RefreshOutcome };

let refresher: ((expired?: string) => Promise<RefreshOutcome>) | null = null;

/**
 * The browser's session refresher: localStorage, the SDK client and the Redux session.
 * `expired` is the access token the caller found expired, when it has one (session-refresher.ts).
 */
export function refreshSession(dispatch: Dispatch, expired?: string): Promise<RefreshOutcome> {
  refresher ??= createSessionRefresher({
    store: { read: readTokenRecord, write: writeTokenRecord, clear: clearTokenRecord },
    refresh: refreshTokens,
    onRefreshed(record) {
      const user = userFromRecord(record);
      if (!user) return false;
      dispatch(sessionRestored(user));
      identifyUser(user.id, user.email);
      return true;
    },
    onSignedOut: () => dispatch(authStateChanged('FAILED')),
    errorName,
    warn: (message, error) => console.warn(message, error),
  });
  return refresher(expired);
}
