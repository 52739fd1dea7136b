import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useDispatch } from 'react-redux';
import { toast } from 'sonner';
import { z } from 'zod';
import { FormError, FormNotice, SubmitButton } from '../../components/form-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { describeApiError } from '../../lib/api.ts';
import { changeEmail, resendEmailCode, verifyEmail } from '../../lib/identity-client.ts';
import { describeIdentityError } from '../../lib/identity-errors.ts';
import { freshAccessToken } from '../../lib/session/fresh-token.ts';
import { refreshSession } from '../../lib/session/token-refresh.ts';
import { type UserRecord, useSyncEmailMutation } from '../../lib/user-api.ts';
import { CodeField, ResendCodeButton, useResendCode } from '../auth/index.ts';

const emailSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Enter the new email address.')
    .email('Enter a valid email address.'),
});
const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, 'Enter the 6-digit code from the email.'),
});

/**
 * Changing the sign-in address, as Cognito does it: the new address gets a code and the old one
 * stays the sign-in name until the code is entered. Then the record takes the verified address
 * from the identity provider (POST /api/user/email) and a refresh brings it into the ID token.
 */
export function ChangeEmailForm({ user }: { user: UserRecord }) {
  const [pending, setPending] = useState<string | null>(null);
  return pending ? (
    <VerifyStep address={pending} onDone={() => setPending(null)} />
  ) : (
    <RequestStep current={user.email} onSent={setPending} />
  );
}

function RequestStep({ current, onSent }: { current: string; onSent: (address: string) => void }) {
  const dispatch = useDispatch();
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<z.infer<typeof emailSchema>>({
    resolver: zodResolver(emailSchema),
    defaultValues: { email: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ email }) => {
    setProblem(null);
    if (email.toLowerCase() === current.toLowerCase()) {
      form.setError('email', { message: 'This is already your email address.' });
      return;
    }
    try {
      await changeEmail(await freshAccessToken(dispatch), email);
    } catch (error) {
      const found = describeIdentityError(error, 'change-email');
      if (found.field === 'email') form.setError('email', { message: found.message });
      else setProblem(found.message);
      return;
    }
    onSent(email);
  });

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <FormError message={problem} />
      <Field label="Current email" value={current} readOnly disabled />
      <Field
        label="New email"
        type="email"
        autoComplete="email"
        inputMode="email"
        error={errors.email?.message}
        {...form.register('email')}
      />
      <div className="sm:w-48">
        <SubmitButton busy={isSubmitting}>Send a code</SubmitButton>
      </div>
    </form>
  );
}

function VerifyStep({ address, onDone }: { address: string; onDone: () => void }) {
  const dispatch = useDispatch();
  const [syncEmail] = useSyncEmailMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const resend = useResendCode(
    async () => resendEmailCode(await freshAccessToken(dispatch)),
    'change-email',
  );
  const form = useForm<z.infer<typeof codeSchema>>({
    resolver: zodResolver(codeSchema),
    defaultValues: { code: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async ({ code }) => {
    setProblem(null);
    try {
      await verifyEmail(await freshAccessToken(dispatch), code);
    } catch (error) {
      const found = describeIdentityError(error, 'change-email');
      if (found.field === 'code') form.setError('code', { message: found.message });
      else setProblem(found.message);
      return;
    }
    // A new ID token carries the new address; the record takes it from the provider.
    await refreshSession(dispatch);
    const synced = await syncEmail();
    if (synced.error) {
      setProblem(describeApiError(synced.error));
      return;
    }
    toast.success('Email address changed. Use it to log in from now on.');
    onDone();
  });

  return (
    <form className="grid gap-4" onSubmit={onSubmit} noValidate>
      <FormNotice>
        We emailed a 6-digit code to <strong className="break-all">{address}</strong>. Until you
        enter it, you keep logging in with your current address.
      </FormNotice>
      <FormError message={problem ?? resend.problem?.message} />
      {resend.sent ? (
        <p className="text-sm text-muted-foreground">A new code is on its way.</p>
      ) : null}
      <CodeField error={errors.code?.message} {...form.register('code')} />
      <div className="flex flex-wrap items-center gap-2">
        <div className="sm:w-48">
          <SubmitButton busy={isSubmitting}>Confirm new email</SubmitButton>
        </div>
        <ResendCodeButton resend={resend} />
        <Button type="button" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
