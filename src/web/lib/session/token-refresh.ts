import type { Dispatch } from '@reduxjs/toolkit';
import { identifyUser } from '../analytics.ts';
import { refreshTokens } from '../identity-client.ts';
import { errorName } from '../identity-errors.ts';
import {
  clearTokenRecord,
  readTokenRecord,
  type TokenRecord,
  writeTokenRecord,
} from '../token-storage.ts';
import { authStateChanged, sessionRestored } from './session-slice.ts';
import { userFromRecord } from './session-user.ts';

export type RefreshOutcome = 'refreshed' | 'signed-out' | 'failed';

let inflight: Promise<RefreshOutcome> | null = null;

/**
 * Spec §4: refreshes the access token with the refresh token, merges the answer into the stored
 * record and saves it. NotAuthorizedException ends the session (record removed, FAILED, the gate
 * redirects to the login page); any other error is logged and the caller goes on. Calls made
 * while a refresh is running share it: two calls at once trigger one refresh.
 */
export function refreshSession(dispatch: Dispatch): Promise<RefreshOutcome> {
  inflight ??= runRefresh(dispatch).finally(() => {
    inflight = null;
  });
  return inflight;
}

async function runRefresh(dispatch: Dispatch): Promise<RefreshOutcome> {
  const record = readTokenRecord();
  if (!record?.RefreshToken) return endSession(dispatch);
  try {
    const fresh = await refreshTokens(record.RefreshToken);
    const merged: TokenRecord = {
      ...record,
      AccessToken: fresh.AccessToken,
      IdToken: fresh.IdToken,
      RefreshToken: fresh.RefreshToken ?? record.RefreshToken,
    };
    const user = userFromRecord(merged);
    if (!user) return endSession(dispatch);
    writeTokenRecord(merged);
    dispatch(sessionRestored(user));
    identifyUser(user.id, user.email);
    return 'refreshed';
  } catch (error) {
    if (errorName(error) === 'NotAuthorizedException') return endSession(dispatch);
    console.warn(
      'Earshot could not refresh the session; the request goes on with the current token.',
      error,
    );
    return 'failed';
  }
}

function endSession(dispatch: Dispatch): RefreshOutcome {
  clearTokenRecord();
  dispatch(authStateChanged('FAILED'));
  return 'signed-out';
}
