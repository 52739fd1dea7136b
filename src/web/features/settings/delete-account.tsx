import { useState } from 'react';
import { useDispatch } from 'react-redux';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { FormError } from '../../components/form-parts.tsx';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { resetAnalytics } from '../../lib/analytics.ts';
import { api, describeApiError } from '../../lib/api.ts';
import { deleteIdentity } from '../../lib/identity-client.ts';
import { describeIdentityError } from '../../lib/identity-errors.ts';
import { paths } from '../../lib/paths.ts';
import { freshAccessToken } from '../../lib/session/fresh-token.ts';
import { loggedOut } from '../../lib/session/session-slice.ts';
import { clearTokenRecord } from '../../lib/token-storage.ts';
import { useDeleteUserDataMutation } from '../../lib/user-api.ts';

const CONFIRMATION = 'DELETE';

/**
 * Deleting needs a typed confirmation. The product's data goes first (DELETE /api/user, while the
 * token still works), then the identity (DeleteUser); a failure in between leaves an identity
 * whose data POST /api/user recreates empty on the next sign-in, never orphaned data.
 */
export function DeleteAccount({ email }: { email: string }) {
  const dispatch = useDispatch();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleteUserData] = useDeleteUserDataMutation();

  const remove = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const deleted = await deleteUserData();
      if (deleted.error) {
        setProblem(describeApiError(deleted.error));
        return;
      }
      try {
        await deleteIdentity(await freshAccessToken(dispatch));
      } catch (error) {
        setProblem(describeIdentityError(error, 'delete').message);
        return;
      }
      clearTokenRecord();
      dispatch(api.util.resetApiState());
      resetAnalytics();
      // The home page is in the main bundle, so a flushSync navigation leaves the dashboard (and
      // its auth gate) before the session is cleared.
      await navigate(paths.home.href(), { replace: true, flushSync: true });
      dispatch(loggedOut());
      toast.success('Your account and all its data are deleted.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <AlertDialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          setTyped('');
          setProblem(null);
        }
      }}
    >
      <p className="mb-4 text-sm text-muted-foreground">
        This deletes the account for <span className="font-medium text-foreground">{email}</span>{' '}
        with every monitor and match. It cannot be undone.
      </p>
      <AlertDialogTrigger asChild>
        <Button variant="destructive">Delete my account…</Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogTitle>Delete your account?</AlertDialogTitle>
        <AlertDialogDescription>
          Your monitors, matches and settings are removed for good, and you will be signed out. Type{' '}
          {CONFIRMATION} to confirm.
        </AlertDialogDescription>
        <form
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === CONFIRMATION) void remove();
          }}
        >
          <FormError message={problem} />
          <Field
            label={`Type ${CONFIRMATION} to confirm`}
            autoComplete="off"
            autoCapitalize="characters"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
          />
          <div className="flex justify-end gap-2">
            <AlertDialogCancel asChild>
              <Button type="button" variant="outline">
                Cancel
              </Button>
            </AlertDialogCancel>
            <Button type="submit" variant="destructive" disabled={typed !== CONFIRMATION || busy}>
              Delete forever
            </Button>
          </div>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
