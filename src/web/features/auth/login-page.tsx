import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import type { z } from 'zod';
import { FormError, FormNotice, SubmitButton } from '../../components/form-parts.tsx';
import { Field } from '../../components/ui/field.tsx';
import { describeApiError } from '../../lib/api.ts';
import { signIn } from '../../lib/identity-client.ts';
import { describeIdentityError, type IdentityProblem } from '../../lib/identity-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths, safeRedirectTarget } from '../../lib/paths.ts';
import { completeSignIn } from '../../lib/session/complete-sign-in.ts';
import { loginFailed } from '../../lib/session/session-slice.ts';
import { useAppDispatch } from '../../lib/store-hooks.ts';
import { AccountShell } from './account-shell.tsx';
import { loginSchema } from './schemas.ts';

type LoginValues = z.infer<typeof loginSchema>;

export function LoginPage() {
  usePageTitle('Log in');
  const [params] = useSearchParams();
  const location = useLocation();
  const notice = typeof location.state?.notice === 'string' ? location.state.notice : null;
  // Straight from confirming a new account: nobody to welcome back yet.
  const newcomer = location.state?.newcomer === true;
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [problem, setProblem] = useState<IdentityProblem | null>(null);
  const form = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: params.get('email') ?? '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email, password }) => {
    setProblem(null);
    let tokens: Awaited<ReturnType<typeof signIn>>;
    try {
      tokens = await signIn(email, password);
    } catch (error) {
      dispatch(loginFailed({ at: Date.now() }));
      const found = describeIdentityError(error, 'login');
      if (found.field === 'email' || found.field === 'password')
        form.setError(found.field, { message: found.message });
      else setProblem(found);
      return;
    }
    try {
      await completeSignIn(dispatch, tokens);
    } catch (error) {
      setProblem({ field: 'form', message: describeApiError(error) });
      return;
    }
    await navigate(safeRedirectTarget(params.get('redirectTo')), { replace: true });
  });

  const email = form.watch('email');
  return (
    <AccountShell
      title="Log in to Earshot"
      description={
        newcomer
          ? 'Your account is ready. Log in and write your first monitor.'
          : 'Welcome back. Your monitors kept listening while you were away.'
      }
      footer={
        <>
          New to Earshot?{' '}
          <Link className="font-medium text-primary hover:underline" to={paths.signup.href()}>
            Create an account
          </Link>
        </>
      }
    >
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        {notice ? <FormNotice>{notice}</FormNotice> : null}
        <FormError message={problem?.message}>
          {problem?.action === 'confirm' ? (
            <Link
              className="font-medium underline"
              to={paths.confirm.href(email)}
              state={{ resend: true }}
            >
              Confirm your email
            </Link>
          ) : problem?.action === 'reset' ? (
            <Link className="font-medium underline" to={paths.forgotPassword.href()}>
              Reset your password
            </Link>
          ) : null}
        </FormError>
        <Field
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
          autoFocus
          error={errors.email?.message}
          {...form.register('email')}
        />
        <div className="grid gap-2">
          <Field
            label="Password"
            type="password"
            autoComplete="current-password"
            error={errors.password?.message}
            {...form.register('password')}
          />
          <Link
            className="justify-self-end text-sm text-primary hover:underline"
            to={paths.forgotPassword.href()}
          >
            Forgot your password?
          </Link>
        </div>
        <SubmitButton busy={isSubmitting}>Log in</SubmitButton>
      </form>
    </AccountShell>
  );
}
