import { Bell, LogOut, Menu, Radar, Settings } from 'lucide-react';
import { type ComponentType, useState } from 'react';
import { Link, NavLink, Outlet } from 'react-router';
import { Logo } from '../components/logo.tsx';
import { Avatar } from '../components/ui/avatar.tsx';
import { Button } from '../components/ui/button.tsx';
import { Drawer, DrawerContent, DrawerDescription, DrawerTitle } from '../components/ui/drawer.tsx';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { useLiveFeed } from '../features/alerts/live-feed.ts';
import { UnreadBadge } from '../features/alerts/unread-badge.tsx';
import { AuthGate } from '../features/auth/auth-gate.tsx';
import { SourceStatusLine } from '../features/source-status/source-status-line.tsx';
import { cn } from '../lib/cn.ts';
import { paths } from '../lib/paths.ts';
import { useLogout } from '../lib/session/use-logout.ts';
import { useAppSelector } from '../lib/store-hooks.ts';

type NavItem = { label: string; href: string; icon: ComponentType<{ className?: string }> };

const NAV_ITEMS: NavItem[] = [
  { label: 'Monitors', href: paths.dashboard.monitors.href(), icon: Radar },
  { label: 'Alerts', href: paths.dashboard.alerts.href(), icon: Bell },
  { label: 'Settings', href: paths.dashboard.settings.href(), icon: Settings },
];

/**
 * The dashboard layout of docs/product.md, "Screens", behind the auth gate of
 * "The session in the browser".
 */
export function DashboardLayout() {
  return (
    <AuthGate skeleton={<DashboardSkeleton />}>
      <DashboardFrame />
    </AuthGate>
  );
}

function DashboardFrame() {
  const [menuOpen, setMenuOpen] = useState(false);
  // One live connection for the whole dashboard: the Alerts page and the unread count listen.
  useLiveFeed();
  return (
    <div className="min-h-dvh bg-background">
      <DashboardHeader onOpenMenu={() => setMenuOpen(true)} />
      <div className="mx-auto flex w-full max-w-7xl">
        <aside
          aria-label="Dashboard"
          data-testid="sidebar"
          className="sticky top-16 hidden h-[calc(100dvh-4rem)] w-60 shrink-0 flex-col border-r px-3 py-6 md:flex"
        >
          <SidebarNav />
          <SourceStatusLine className="mt-4" />
        </aside>
        <main id="main" className="min-w-0 flex-1 px-4 py-6 sm:px-6 md:px-10 md:py-8">
          <Outlet />
        </main>
      </div>
      <Drawer open={menuOpen} onOpenChange={setMenuOpen}>
        <DrawerContent data-testid="bottom-sheet" aria-describedby={undefined}>
          <DrawerTitle className="sr-only">Menu</DrawerTitle>
          <DrawerDescription className="sr-only">
            Go to a page of your dashboard or log out.
          </DrawerDescription>
          <div className="px-3 pt-1 pb-6">
            <SidebarNav onNavigate={() => setMenuOpen(false)} />
            <SourceStatusLine className="mt-4" />
          </div>
        </DrawerContent>
      </Drawer>
    </div>
  );
}

function DashboardHeader({ onOpenMenu }: { onOpenMenu?: () => void }) {
  const { firstName, email, authState } = useAppSelector((state) => state.session);
  const loggedIn = authState === 'VALID_TOKEN';
  return (
    <header className="sticky top-0 z-40 h-16 border-b bg-background/85 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-full max-w-7xl items-center gap-3 px-4 sm:px-6">
        <Link
          to={loggedIn ? paths.dashboard.monitors.href() : paths.home.href()}
          className="shrink-0 rounded-md"
          aria-label="Earshot home"
        >
          <Logo />
        </Link>
        <div className="ml-auto flex min-w-0 items-center gap-2">
          {loggedIn ? (
            <Link
              to={paths.dashboard.settings.href()}
              className="flex min-w-0 items-center gap-2 rounded-full py-1 pr-1 pl-3 text-sm font-medium hover:bg-accent"
              data-testid="header-user"
            >
              <span className="max-w-[12rem] truncate">{firstName || email}</span>
              <Avatar name={firstName} email={email} />
            </Link>
          ) : (
            <Skeleton className="h-8 w-28 rounded-full" />
          )}
          <Button
            variant="ghost"
            size="icon"
            className="shrink-0 md:hidden"
            aria-label="Open menu"
            data-testid="mobile-menu-button"
            onClick={onOpenMenu}
          >
            <Menu />
          </Button>
        </div>
      </div>
    </header>
  );
}

function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const logout = useLogout();
  const itemClass =
    'flex h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors';
  return (
    <nav aria-label="Main" className="flex flex-1 flex-col gap-1">
      {NAV_ITEMS.map(({ label, href, icon: Icon }) => (
        <NavLink
          key={href}
          to={href}
          onClick={onNavigate}
          className={({ isActive }) =>
            cn(
              itemClass,
              isActive
                ? 'bg-accent text-accent-foreground'
                : 'text-muted-foreground hover:bg-muted hover:text-foreground',
            )
          }
        >
          <Icon className="size-4" />
          {label}
          {href === paths.dashboard.alerts.href() ? <UnreadBadge /> : null}
        </NavLink>
      ))}
      <button
        type="button"
        onClick={() => {
          onNavigate?.();
          void logout();
        }}
        className={cn(
          itemClass,
          'mt-auto text-muted-foreground hover:bg-muted hover:text-foreground',
        )}
      >
        <LogOut className="size-4" />
        Log Out
      </button>
    </nav>
  );
}

function DashboardSkeleton() {
  return (
    <div
      className="min-h-dvh"
      role="status"
      aria-busy="true"
      aria-label="Loading your dashboard"
      data-testid="dashboard-skeleton"
    >
      <div className="flex h-16 items-center gap-3 border-b px-4 sm:px-6">
        <Skeleton className="size-7 rounded-lg" />
        <Skeleton className="h-5 w-24" />
        <Skeleton className="ml-auto h-8 w-28 rounded-full" />
      </div>
      <div className="mx-auto flex max-w-7xl">
        <div className="hidden w-60 flex-col gap-2 border-r px-3 py-6 md:flex">
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
          <Skeleton className="h-10" />
        </div>
        <div className="flex-1 space-y-4 px-4 py-8 sm:px-6 md:px-10">
          <Skeleton className="h-8 w-48" />
          <Skeleton className="h-4 w-80 max-w-full" />
          <Skeleton className="h-32" />
          <Skeleton className="h-32" />
        </div>
      </div>
    </div>
  );
}
