import type { ComponentProps } from 'react';
import { NEW_PASSWORD_HINT } from '../lib/password-policy.ts';
import { Field } from './ui/field.tsx';

type InputProps = Omit<ComponentProps<'input'>, 'type' | 'autoComplete'>;

/** A new password and its repetition, as password managers expect them (autocomplete new-password). */
export function NewPasswordFields({
  newPassword,
  repeat,
  errors,
}: {
  newPassword: InputProps;
  repeat: InputProps;
  errors: { newPassword?: string | undefined; repeat?: string | undefined };
}) {
  return (
    <>
      <Field
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={NEW_PASSWORD_HINT}
        error={errors.newPassword}
        {...newPassword}
      />
      <Field
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        error={errors.repeat}
        {...repeat}
      />
    </>
  );
}
