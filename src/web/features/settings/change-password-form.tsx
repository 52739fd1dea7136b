import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormError, SubmitButton } from '../../components/form-parts.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { Field } from '../../components/ui/field.tsx';
import { changePassword } from '../../lib/identity-client.ts';
import { describeIdentityError } from '../../lib/identity-errors.ts';
import { newPasswordSchema, repeatMatches } from '../../lib/password-policy.ts';
import { freshAccessToken } from '../../lib/session/fresh-token.ts';

const schema = z
  .object({
    password: z.string().min(1, 'Enter your current password.'),
    newPassword: newPasswordSchema,
    repeat: z.string(),
  })
  .refine(...repeatMatches)
  .refine((value) => value.newPassword !== value.password, {
    path: ['newPassword'],
    message: 'Choose a password different from the current one.',
  });

type Values = z.infer<typeof schema>;

export function ChangePasswordForm() {
  const dispatch = useDispatch();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: { password: '', newPassword: '', repeat: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ password, newPassword }) => {
    setProblem(null);
    try {
      await changePassword(await freshAccessToken(dispatch), password, newPassword);
    } catch (error) {
      const found = describeIdentityError(error, 'change-password');
      if (found.field === 'password' || found.field === 'newPassword')
        form.setError(found.field, { message: found.message });
      else setProblem(found.message);
      return;
    }
    form.reset();
    toast.success('Password changed. Other devices are signed out.');
  });

  return (
    <form className="grid gap-4 sm:max-w-sm" onSubmit={onSubmit} noValidate>
      <FormError message={problem} />
      <Field
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...form.register('password')}
      />
      <NewPasswordFields
        newPassword={form.register('newPassword')}
        repeat={form.register('repeat')}
        errors={{ newPassword: errors.newPassword?.message, repeat: errors.repeat?.message }}
      />
      <div className="sm:w-48">
        <SubmitButton busy={isSubmitting}>Change password</SubmitButton>
      </div>
    </form>
  );
}
