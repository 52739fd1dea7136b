import { useCallback, useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { resetAnalytics } from '../../lib/analytics.ts';
import { api, describeApiError } from '../../lib/api.ts';
import { deleteIdentity } from '../../lib/identity-client.ts';
import { describeIdentityError } from '../../lib/identity-errors.ts';
import { paths } from '../../lib/paths.ts';
import { freshAccessToken } from '../../lib/session/fresh-token.ts';
import { loggedOut } from '../../lib/session/session-slice.ts';
import { clearTokenRecord } from '../../lib/token-storage.ts';
import { useDeleteUserDataMutation } from '../../lib/user-api.ts';

/**
 * Deletes the account: the product's data first (DELETE /api/user, while the token still works),
 * then the identity (DeleteUser), then the session. While it runs the settings page stops reading
 * the user record (`deleting`), so the mutation's User invalidation cannot refetch — and, through
 * POST /api/user, recreate — the record between the two deletions.
 */
export function useDeleteAccount() {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [deleteUserData] = useDeleteUserDataMutation();
  const [deleting, setDeleting] = useState(false);

  const remove = useCallback(async () => {
    setDeleting(true);
    const fail = (message: string) => {
      setDeleting(false);
      toast.error(`Your account was not deleted. ${message}`);
    };
    const deleted = await deleteUserData();
    if (deleted.error) return fail(describeApiError(deleted.error));
    try {
      await deleteIdentity(await freshAccessToken(dispatch));
    } catch (error) {
      return fail(describeIdentityError(error, 'delete').message);
    }
    clearTokenRecord();
    dispatch(api.util.resetApiState());
    resetAnalytics();
    // The home page is in the main bundle, so a flushSync navigation leaves the dashboard (and its
    // auth gate) before the session is cleared.
    await navigate(paths.home.href(), { replace: true, flushSync: true });
    dispatch(loggedOut());
    toast.success('Your account and all its data are deleted.');
  }, [deleteUserData, dispatch, navigate]);

  return { deleting, remove };
}
