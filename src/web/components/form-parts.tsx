import { Loader2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { Alert } from './ui/alert.tsx';
import { Button } from './ui/button.tsx';

export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  return (
    <Button type="submit" className="w-full" disabled={busy} aria-busy={busy}>
      {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
      {children}
    </Button>
  );
}

export function FormError({
  message,
  children,
}: {
  message: string | null | undefined;
  children?: ReactNode;
}) {
  if (!message) return null;
  return (
    <Alert variant="destructive" data-testid="form-error">
      <p>{message}</p>
      {children ? <div className="mt-2">{children}</div> : null}
    </Alert>
  );
}

export function FormNotice({ children }: { children: ReactNode }) {
  return (
    <Alert variant="success" role="status" data-testid="form-notice">
      {children}
    </Alert>
  );
}
