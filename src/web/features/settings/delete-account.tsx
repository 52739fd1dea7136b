import { useState } from 'react';
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

const CONFIRMATION = 'DELETE';

/** The typed confirmation in front of deleting the account (done by useDeleteAccount). */
export function DeleteAccount({ email, onConfirm }: { email: string; onConfirm: () => void }) {
  const [typed, setTyped] = useState('');
  return (
    <AlertDialog onOpenChange={(open) => (open ? null : setTyped(''))}>
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
            if (typed === CONFIRMATION) onConfirm();
          }}
        >
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
            <Button type="submit" variant="destructive" disabled={typed !== CONFIRMATION}>
              Delete forever
            </Button>
          </div>
        </form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
