import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { resetAnalytics } from '../analytics.ts';
import { api } from '../api.ts';
import { revokeRefreshToken } from '../identity-client.ts';
import { paths } from '../paths.ts';
import { clearTokenRecord, readTokenRecord } from '../token-storage.ts';
import { loggedOut } from './session-slice.ts';

/**
 * docs/product.md, "The session in the browser": Log Out clears the stored session, resets the API
 * cache and goes to the login page. The dashboard's auth gate may notice the cleared session first
 * and redirect too; `loggedOut` tells it to go to the plain login page, so both lead to the same
 * place.
 *
 * The refresh token is revoked at the identity provider too (RevokeToken), so a copy of it stops
 * working; best effort and never waited for: an unreachable provider must not keep anyone from
 * logging out.
 */
export function useLogout() {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    const refreshToken = readTokenRecord()?.RefreshToken;
    clearTokenRecord();
    if (refreshToken) void revokeRefreshToken(refreshToken).catch(() => undefined);
    dispatch(api.util.resetApiState());
    resetAnalytics();
    dispatch(loggedOut());
    await navigate(paths.login.href(), { replace: true });
  }, [dispatch, navigate]);
}
