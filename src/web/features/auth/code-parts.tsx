import type { ComponentProps } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';

/** The 6-digit code from an email, with the hints phones use to offer it from the message. */
export function CodeField({
  error,
  ...props
}: ComponentProps<'input'> & { error?: string | undefined }) {
  return (
    <Field
      label="Code"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      placeholder="123456"
      autoFocus
      className="[&_input]:tracking-[0.3em]"
      error={error}
      {...props}
    />
  );
}

export function ResendCodeButton({
  resend,
}: {
  resend: { resend(): Promise<void>; busy: boolean; cooldown: number };
}) {
  return (
    <Button
      type="button"
      variant="ghost"
      onClick={() => void resend.resend()}
      disabled={resend.busy || resend.cooldown > 0}
    >
      {resend.cooldown > 0 ? `Send a new code (${resend.cooldown} s)` : 'Send a new code'}
    </Button>
  );
}
