import { Toaster as Sonner } from 'sonner';

/** docs/product.md, "Constants": toasts bottom-right, about 4 s, at most 3 visible. */
export const TOAST_DURATION_MS = 4000;
export const TOASTS_VISIBLE = 3;

export function Toaster() {
  return (
    <Sonner
      position="bottom-right"
      duration={TOAST_DURATION_MS}
      visibleToasts={TOASTS_VISIBLE}
      theme="system"
      closeButton
      toastOptions={{
        classNames: {
          toast: 'rounded-lg border border-border bg-card text-card-foreground shadow-lg',
          description: 'text-muted-foreground',
        },
      }}
    />
  );
}
