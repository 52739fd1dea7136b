import { cn } from '../lib/cn.ts';

/** The Earshot mark: a source and the waves that reach you. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-7', className)}>
      <rect width="32" height="32" rx="8" className="fill-primary" />
      <circle cx="11" cy="16" r="3" className="fill-primary-foreground" />
      <path
        d="M16 10a8 8 0 0 1 0 12M20 6.5a13 13 0 0 1 0 19"
        fill="none"
        className="stroke-primary-foreground"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Logo({ className }: { className?: string }) {
  return (
    <span
      className={cn(
        'inline-flex items-center gap-2 text-lg font-semibold tracking-tight',
        className,
      )}
    >
      <LogoMark />
      Earshot
    </span>
  );
}
