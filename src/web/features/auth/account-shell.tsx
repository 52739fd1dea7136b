import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { paths } from '../../lib/paths.ts';

/** The frame of every /account page: the logo, one card, and links under it. */
export function AccountShell({
  title,
  description,
  children,
  footer,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10 sm:py-16">
      <Link to={paths.home.href()} aria-label="Earshot home" className="rounded-md">
        <Logo />
      </Link>
      <main className="mt-8 w-full max-w-sm">
        <div className="rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
          <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
          {description ? (
            <p className="mt-1.5 text-sm text-muted-foreground">{description}</p>
          ) : null}
          <div className="mt-6">{children}</div>
        </div>
        {footer ? (
          <div className="mt-6 text-center text-sm text-muted-foreground">{footer}</div>
        ) : null}
      </main>
    </div>
  );
}
