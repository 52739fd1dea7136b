import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FormError, FormNotice, SubmitButton } from '../../components/form-parts.tsx';
import { Field } from '../../components/ui/field.tsx';
import { confirmSignUp, resendConfirmationCode } from '../../lib/identity-client.ts';
import { describeIdentityError, type IdentityProblem } from '../../lib/identity-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { AccountShell } from './account-shell.tsx';
import { CodeField, ResendCodeButton } from './code-parts.tsx';
import { confirmSchema } from './schemas.ts';
import { useResendCode } from './use-resend-code.ts';

type ConfirmValues = z.infer<typeof confirmSchema>;

export function ConfirmPage() {
  usePageTitle('Confirm your email');
  const [params] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<IdentityProblem | null>(null);
  const form = useForm<ConfirmValues>({
    resolver: zodResolver(confirmSchema),
    defaultValues: { email: params.get('email') ?? '', code: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const resend = useResendCode(
    () => resendConfirmationCode(form.getValues('email').trim()),
    'resend',
  );

  // Arriving from a sign-in refused as "not confirmed": send a fresh code once, unasked.
  const autoSent = useRef(false);
  useEffect(() => {
    if (location.state?.resend && !autoSent.current && params.get('email')) {
      autoSent.current = true;
      void resend.resend();
    }
  }, [location.state, params, resend]);

  const onSubmit = form.handleSubmit(async ({ email, code }) => {
    setProblem(null);
    try {
      await confirmSignUp(email, code);
      await navigate(`${paths.login.href()}?email=${encodeURIComponent(email)}`, {
        state: {
          notice: 'Your email address is confirmed. Log in to start listening.',
          newcomer: true,
        },
      });
    } catch (error) {
      const found = describeIdentityError(error, 'confirm');
      if (found.field === 'code' || found.field === 'email')
        form.setError(found.field, { message: found.message });
      else setProblem(found);
    }
  });

  const initialNotice = typeof location.state?.notice === 'string' ? location.state.notice : null;
  const resendProblem = resend.problem?.message;
  return (
    <AccountShell
      title="Confirm your email"
      description="Enter the 6-digit code we emailed you."
      footer={
        <Link className="font-medium text-primary hover:underline" to={paths.login.href()}>
          Back to log in
        </Link>
      }
    >
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        {resend.sent ? (
          <FormNotice>We sent a new code. Check your inbox (and the spam folder).</FormNotice>
        ) : initialNotice ? (
          <FormNotice>{initialNotice}</FormNotice>
        ) : null}
        <FormError message={problem?.message ?? resendProblem}>
          {problem?.action === 'login' ? (
            <Link className="font-medium underline" to={paths.login.href()}>
              Log in
            </Link>
          ) : null}
        </FormError>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <CodeField error={errors.code?.message} {...form.register('code')} />
        <SubmitButton busy={isSubmitting}>Confirm email</SubmitButton>
        <ResendCodeButton resend={resend} />
      </form>
    </AccountShell>
  );
}
