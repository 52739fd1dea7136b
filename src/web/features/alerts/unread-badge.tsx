import { useAppSelector } from '../../lib/store-hooks.ts';
import { UNREAD_COUNT_CAP, useUnreadCountQuery } from './matches-api.ts';

/** The unread count beside "Alerts" in the sidebar; nothing when all is read. */
export function UnreadBadge() {
  const signedIn = useAppSelector((state) => state.session.authState === 'VALID_TOKEN');
  const { data } = useUnreadCountQuery(undefined, { skip: !signedIn });
  if (!data || data.count === 0) return null;
  const text = data.more ? `${UNREAD_COUNT_CAP}+` : String(data.count);
  return (
    <span
      className="ml-auto rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-primary-foreground tabular-nums"
      data-testid="unread-count"
    >
      {text}
      <span className="sr-only"> unread</span>
    </span>
  );
}
