import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../lib/paths.ts';
import { Logo } from './logo.tsx';

/**
 * A page without the dashboard around it (the account pages, the pages signed email links open):
 * the logo linking home, then one centred column `width` wide.
 */
export function CenteredPage({
  width,
  children,
}: {
  width: 'max-w-sm' | 'max-w-md';
  children: ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10 sm:py-16">
      <Link to={paths.home.href()} aria-label="Earshot home" className="rounded-md">
        <Logo />
      </Link>
      <main className={`mt-8 w-full ${width}`}>{children}</main>
    </div>
  );
}
