import { CircleAlert, CircleCheck, Loader2, type LucideIcon, MailX } from 'lucide-react';
import type { ReactNode } from 'react';
import { CenteredPage } from './centered-page.tsx';

export type LinkPageState = 'ask' | 'busy' | 'done' | 'problem';

const ICONS: Record<Exclude<LinkPageState, 'ask'>, LucideIcon> = {
  busy: Loader2,
  done: CircleCheck,
  problem: CircleAlert,
};
const ICON_CLASSES: Record<LinkPageState, string> = {
  ask: 'size-6 text-muted-foreground',
  busy: 'size-6 animate-spin text-muted-foreground',
  done: 'size-6 text-success',
  problem: 'size-6 text-destructive',
};

/**
 * The page a signed link from an email opens without sign-in (unsubscribe, rating, mute): the
 * logo, then one card with the state's icon, a heading and what to do next. `askIcon` is the
 * icon of the question the link asks before it acts.
 */
export function LinkPageFrame({
  icon,
  askIcon = MailX,
  title,
  children,
}: {
  icon: LinkPageState;
  askIcon?: LucideIcon;
  title: string;
  children: ReactNode;
}) {
  const Icon = icon === 'ask' ? askIcon : ICONS[icon];
  return (
    <CenteredPage width="max-w-md">
      <div
        className="rounded-2xl border bg-card p-6 shadow-sm sm:p-8"
        role={icon === 'busy' ? 'status' : undefined}
        aria-busy={icon === 'busy'}
      >
        <Icon aria-hidden="true" className={ICON_CLASSES[icon]} />
        <h1 className="mt-3 text-xl font-semibold tracking-tight wrap-anywhere">{title}</h1>
        <div className="mt-2 text-sm text-muted-foreground">{children}</div>
      </div>
    </CenteredPage>
  );
}
