import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormError, SubmitButton } from '../../components/form-parts.tsx';
import { Field } from '../../components/ui/field.tsx';
import { forgotPassword } from '../../lib/identity-client.ts';
import { describeIdentityError, type IdentityProblem } from '../../lib/identity-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { AccountShell } from './account-shell.tsx';
import { forgotSchema } from './schemas.ts';

type ForgotValues = z.infer<typeof forgotSchema>;

export function ForgotPasswordPage() {
  usePageTitle('Reset your password');
  const navigate = useNavigate();
  const [problem, setProblem] = useState<IdentityProblem | null>(null);
  const form = useForm<ForgotValues>({
    resolver: zodResolver(forgotSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setProblem(null);
    try {
      await forgotPassword(email);
      await navigate(paths.resetPassword.href(email), {
        state: {
          notice:
            'If an account uses this address, we emailed it a 6-digit code. It is valid for 1 hour.',
        },
      });
    } catch (error) {
      const found = describeIdentityError(error, 'forgot');
      if (found.field === 'email') form.setError('email', { message: found.message });
      else setProblem(found);
    }
  });

  return (
    <AccountShell
      title="Reset your password"
      description="Enter your email address and we will send you a code to set a new password."
      footer={
        <Link className="font-medium text-primary hover:underline" to={paths.login.href()}>
          Back to log in
        </Link>
      }
    >
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        <FormError message={problem?.message} />
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          autoFocus
          error={errors.email?.message}
          {...form.register('email')}
        />
        <SubmitButton busy={isSubmitting}>Send the code</SubmitButton>
      </form>
    </AccountShell>
  );
}
