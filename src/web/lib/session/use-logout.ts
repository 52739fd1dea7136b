import { useCallback } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { resetAnalytics } from '../analytics.ts';
import { api } from '../api.ts';
import { paths } from '../paths.ts';
import { clearTokenRecord } from '../token-storage.ts';
import { loggedOut } from './session-slice.ts';

/**
 * Spec §2: Log Out clears the stored session, resets the API cache and goes to the login page.
 * The session is cleared after the navigation so the dashboard's auth gate, already unmounted,
 * does not also redirect (with a "come back here" target the user did not ask for).
 */
export function useLogout() {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  return useCallback(async () => {
    clearTokenRecord();
    dispatch(api.util.resetApiState());
    resetAnalytics();
    // flushSync: unmount the dashboard now, not in a transition, before the session is cleared.
    await navigate(paths.login.href(), { replace: true, flushSync: true });
    dispatch(loggedOut());
  }, [dispatch, navigate]);
}
