import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormError, SubmitButton } from '../../components/form-parts.tsx';
import { Field } from '../../components/ui/field.tsx';
import { describeApiError } from '../../lib/api.ts';
import { updateNames } from '../../lib/identity-client.ts';
import { describeIdentityError } from '../../lib/identity-errors.ts';
import { freshAccessToken } from '../../lib/session/fresh-token.ts';
import { namesChanged } from '../../lib/session/session-slice.ts';
import { refreshSession } from '../../lib/session/token-refresh.ts';
import { type UserRecord, useUpdateUserMutation } from '../../lib/user-api.ts';

const profileSchema = z.object({
  firstName: z
    .string()
    .trim()
    .min(1, 'Enter your first name.')
    .max(100, 'Use at most 100 characters.'),
  lastName: z.string().trim().max(100, 'Use at most 100 characters.'),
});

type ProfileValues = z.infer<typeof profileSchema>;

export function ProfileForm({ user }: { user: UserRecord }) {
  const dispatch = useDispatch();
  const [updateUser] = useUpdateUserMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<ProfileValues>({
    resolver: zodResolver(profileSchema),
    defaultValues: { firstName: user.firstName, lastName: user.lastName },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      // The identity provider's attributes feed the ID token (the header's name after a refresh).
      await updateNames(await freshAccessToken(dispatch), values.firstName, values.lastName);
    } catch (error) {
      setProblem(describeIdentityError(error, 'profile').message);
      return;
    }
    const saved = await updateUser(values);
    if (saved.error) {
      setProblem(describeApiError(saved.error));
      return;
    }
    dispatch(namesChanged(values));
    // A new ID token carries the new names, so they survive a reload (the header reads them).
    await refreshSession(dispatch);
    form.reset(values);
    toast.success('Profile saved.');
  });

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <FormError message={problem} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="First name"
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...form.register('firstName')}
        />
        <Field
          label="Last name"
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...form.register('lastName')}
        />
      </div>
      <div className="sm:w-40">
        <SubmitButton busy={isSubmitting}>Save profile</SubmitButton>
      </div>
    </form>
  );
}
