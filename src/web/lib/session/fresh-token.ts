import type { Dispatch } from '@reduxjs/toolkit';
import { isAccessTokenValid, readTokenRecord } from '../token-storage.ts';
import { refreshSession } from './token-refresh.ts';

/** The current access token for a call to the identity provider, refreshed first if it expired. */
export async function freshAccessToken(dispatch: Dispatch): Promise<string> {
  const record = readTokenRecord();
  if (record && !isAccessTokenValid(record.AccessToken)) {
    await refreshSession(dispatch, record.AccessToken);
  }
  const token = readTokenRecord()?.AccessToken;
  if (!token) {
    throw Object.assign(new Error('Your session has ended.'), { name: 'NotAuthorizedException' });
  }
  return token;
}
