import { identifyUser } from '../analytics.ts';
import type { Tokens } from '../identity-client.ts';
import type { AppDispatch } from '../store.ts';
import { writeTokenRecord } from '../token-storage.ts';
import { userApi } from '../user-api.ts';
import { loginSucceeded } from './session-slice.ts';
import { userFromRecord } from './session-user.ts';

/**
 * After a successful sign-in (docs/product.md, "The session in the browser"): store the record
 * under `token`, fill the session, identify the user for analytics, then make sure the backend has
 * the user's record (POST /api/user).
 */
export async function completeSignIn(dispatch: AppDispatch, tokens: Tokens): Promise<void> {
  const record = {
    AccessToken: tokens.AccessToken,
    RefreshToken: tokens.RefreshToken,
    IdToken: tokens.IdToken,
  };
  const user = userFromRecord(record);
  if (!user)
    throw Object.assign(new Error('The sign-in answer had no readable ID token.'), {
      name: 'InternalErrorException',
    });
  writeTokenRecord(record);
  dispatch(loginSucceeded({ ...user, at: Date.now() }));
  identifyUser(user.id, user.email);
  await dispatch(userApi.endpoints.ensureUser.initiate()).unwrap();
}
