import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FormError, FormNotice, SubmitButton } from '../../components/form-parts.tsx';
import { NewPasswordFields } from '../../components/new-password-fields.tsx';
import { Field } from '../../components/ui/field.tsx';
import { confirmForgotPassword, forgotPassword } from '../../lib/identity-client.ts';
import { describeIdentityError, type IdentityProblem } from '../../lib/identity-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { AccountShell } from './account-shell.tsx';
import { CodeField, ResendCodeButton } from './code-parts.tsx';
import { resetSchema } from './schemas.ts';
import { useResendCode } from './use-resend-code.ts';

type ResetValues = z.infer<typeof resetSchema>;

export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<IdentityProblem | null>(null);
  const form = useForm<ResetValues>({
    resolver: zodResolver(resetSchema),
    defaultValues: { email: params.get('email') ?? '', code: '', newPassword: '', repeat: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const resend = useResendCode(() => forgotPassword(form.getValues('email').trim()), 'forgot');

  const onSubmit = form.handleSubmit(async ({ email, code, newPassword }) => {
    setProblem(null);
    try {
      await confirmForgotPassword(email, code, newPassword);
      await navigate(`${paths.login.href()}?email=${encodeURIComponent(email)}`, {
        state: { notice: 'Your password is changed. Log in with the new one.' },
      });
    } catch (error) {
      const found = describeIdentityError(error, 'reset');
      if (found.field === 'code' || found.field === 'email' || found.field === 'newPassword') {
        form.setError(found.field, { message: found.message });
      } else setProblem(found);
    }
  });

  const notice = resend.sent
    ? 'We sent a new code. Check your inbox (and the spam folder).'
    : typeof location.state?.notice === 'string'
      ? location.state.notice
      : null;
  return (
    <AccountShell
      title="Choose a new password"
      description="Enter the code we emailed you and your new password."
      footer={
        <Link className="font-medium text-primary hover:underline" to={paths.login.href()}>
          Back to log in
        </Link>
      }
    >
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        {notice ? <FormNotice>{notice}</FormNotice> : null}
        <FormError message={problem?.message ?? resend.problem?.message} />
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <CodeField error={errors.code?.message} {...form.register('code')} />
        <NewPasswordFields
          newPassword={form.register('newPassword')}
          repeat={form.register('repeat')}
          errors={{ newPassword: errors.newPassword?.message, repeat: errors.repeat?.message }}
        />
        <SubmitButton busy={isSubmitting}>Set the new password</SubmitButton>
        <ResendCodeButton resend={resend} />
      </form>
    </AccountShell>
  );
}
