import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import type { z } from 'zod';
import { FormError, SubmitButton } from '../../components/form-parts.tsx';
import { Field } from '../../components/ui/field.tsx';
import { signUp } from '../../lib/identity-client.ts';
import { describeIdentityError, type IdentityProblem } from '../../lib/identity-errors.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { NEW_PASSWORD_HINT } from '../../lib/password-policy.ts';
import { paths } from '../../lib/paths.ts';
import { AccountShell } from './account-shell.tsx';
import { signupSchema } from './schemas.ts';

type SignupValues = z.infer<typeof signupSchema>;

export function SignupPage() {
  usePageTitle('Sign up');
  const navigate = useNavigate();
  const [problem, setProblem] = useState<IdentityProblem | null>(null);
  const form = useForm<SignupValues>({
    resolver: zodResolver(signupSchema),
    defaultValues: { givenName: '', familyName: '', email: '', password: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    setProblem(null);
    try {
      const answer = await signUp(values);
      const where = answer.CodeDeliveryDetails?.Destination ?? values.email;
      await navigate(paths.confirm.href(values.email), {
        state: { notice: `We sent a 6-digit code to ${where}. It is valid for 24 hours.` },
      });
    } catch (error) {
      const found = describeIdentityError(error, 'signup');
      if (found.field === 'email' || found.field === 'password') {
        form.setError(found.field, { message: found.message });
      } else setProblem(found);
    }
  });

  return (
    <AccountShell
      title="Create your Earshot account"
      description="Free to start. Hear your first mention in minutes."
      footer={
        <>
          Already have an account?{' '}
          <Link className="font-medium text-primary hover:underline" to={paths.login.href()}>
            Log in
          </Link>
        </>
      }
    >
      <form className="grid gap-4" onSubmit={onSubmit} noValidate>
        <FormError message={problem?.message} />
        <div className="grid grid-cols-2 gap-3">
          <Field
            label="First name"
            autoComplete="given-name"
            autoFocus
            error={errors.givenName?.message}
            {...form.register('givenName')}
          />
          <Field
            label="Last name"
            autoComplete="family-name"
            error={errors.familyName?.message}
            {...form.register('familyName')}
          />
        </div>
        <Field
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          error={errors.email?.message}
          {...form.register('email')}
        />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={NEW_PASSWORD_HINT}
          error={errors.password?.message}
          {...form.register('password')}
        />
        <SubmitButton busy={isSubmitting}>Create account</SubmitButton>
        <p className="text-xs text-muted-foreground">
          We will email you a code to confirm the address. No spam, ever.
        </p>
      </form>
    </AccountShell>
  );
}
