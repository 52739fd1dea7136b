import { Link } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { paths } from '../../lib/paths.ts';

export function LoginPage() {
  return (
    <AccountShell title="Log in to Earshot">
      <p className="text-sm text-muted-foreground">Sign-in arrives with the accounts release.</p>
    </AccountShell>
  );
}

export function AccountShell({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: React.ReactNode;
}) {
  return (
    <div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10">
      <Link to={paths.home.href()} aria-label="Earshot home" className="rounded-md">
        <Logo />
      </Link>
      <main className="mt-8 w-full max-w-sm rounded-2xl border bg-card p-6 shadow-sm sm:p-8">
        <h1 className="text-xl font-semibold tracking-tight">{title}</h1>
        {description ? <p className="mt-1 text-sm text-muted-foreground">{description}</p> : null}
        <div className="mt-6">{children}</div>
      </main>
    </div>
  );
}
