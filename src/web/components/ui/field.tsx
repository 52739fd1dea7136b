import { type ComponentProps, useId } from 'react';
import { cn } from '../../lib/cn.ts';
import { Input } from './input.tsx';
import { Label } from './label.tsx';

/**
 * A labelled input with its hint and error, wired for screen readers (aria-describedby,
 * aria-invalid). Pass react-hook-form's `register(...)` result as props.
 */
export function Field({
  label,
  error,
  hint,
  className,
  id,
  ...inputProps
}: ComponentProps<'input'> & { label: string; error?: string | undefined; hint?: string }) {
  const generated = useId();
  const inputId = id ?? generated;
  const hintId = `${inputId}-hint`;
  const errorId = `${inputId}-error`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={inputId}>{label}</Label>
      <Input
        id={inputId}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...inputProps}
      />
      {hint && !error ? (
        <p id={hintId} className="text-xs text-muted-foreground">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p
          id={errorId}
          className="text-sm text-destructive"
          data-testid={`${inputProps.name ?? inputId}-error`}
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}
