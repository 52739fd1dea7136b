import { BellOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { MuteResult } from '../../../shared/mute.ts';
import { formatCommunity, SOURCE_LABELS } from '../../../shared/sources.ts';
import { LinkPageFrame, type LinkPageState } from '../../components/link-page-frame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { addressSecret } from '../../lib/address-secrets.ts';
import { describeApiError } from '../../lib/api.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { useApplyMuteMutation, useDescribeMuteQuery, useUndoMuteMutation } from './mute-api.ts';

/**
 * `/mute?token=…`, a mute link of an alert email (decision 0038): says what it mutes for which
 * monitor, mutes on one click without signing in, shows the exclusion the monitor now carries,
 * and offers to undo. Nothing changes on load: mail scanners open the links of a message.
 */
export function MutePage() {
  usePageTitle('Mute');
  const [params] = useSearchParams();
  const token = (params.get('token') ?? addressSecret('token'))?.trim() ?? '';
  const described = useDescribeMuteQuery(token, { skip: token === '' });
  const [apply, applied] = useApplyMuteMutation();
  const [undo, undone] = useUndoMuteMutation();

  if (token === '' || described.error) {
    return (
      <Frame icon="problem" title="This mute link does not work">
        <p>
          {described.error
            ? describeApiError(described.error)
            : 'The link has no token; it may have been cut short.'}
        </p>
        <MonitorsLink>Change the monitor instead (sign in, then Monitors)</MonitorsLink>
      </Frame>
    );
  }
  const state = undone.data ?? applied.data ?? described.data;
  if (!state) {
    return (
      <Frame icon="busy" title="Reading the link…">
        <p>One moment.</p>
      </Frame>
    );
  }
  const what = describeTarget(state);
  const monitor = state.monitor.name || state.monitor.query;
  const problem = applied.error ?? undone.error;
  if (!state.muted) {
    return (
      <Frame icon={undone.data ? 'done' : 'ask'} title={undone.data ? 'Undone' : `Mute ${what}?`}>
        {problem ? <p role="alert">{describeApiError(problem)}</p> : null}
        <p>
          {undone.data
            ? `Alerts of “${monitor}” include ${what} again.`
            : `The monitor “${monitor}” will stop alerting on ${what}, by email, webhook and in the feed.`}
        </p>
        <Button
          className="mt-4"
          onClick={() => void apply(token)}
          disabled={applied.isLoading}
          aria-busy={applied.isLoading}
        >
          Mute {what}
        </Button>
      </Frame>
    );
  }
  return (
    <Frame icon="done" title="Muted">
      {problem ? <p role="alert">{describeApiError(problem)}</p> : null}
      <p>
        “{monitor}” no longer alerts on {what}.
        {state.exclusion ? (
          <>
            {' '}
            Its query is now{' '}
            <code className="font-mono text-foreground" data-testid="mute-query">
              {state.monitor.query}
            </code>
            .
          </>
        ) : (
          ' The thread is listed on the monitor, with an undo.'
        )}
      </p>
      <Button
        className="mt-4"
        variant="outline"
        onClick={() => void undo(token)}
        disabled={undone.isLoading}
        aria-busy={undone.isLoading}
      >
        Undo
      </Button>
      <MonitorsLink>See the monitor (sign in, then Monitors)</MonitorsLink>
    </Frame>
  );
}

/** "this thread (“Show HN: …”)", "pg", "r/programming". */
function describeTarget(mute: MuteResult): string {
  if (mute.kind === 'thread') return mute.title ? `the thread “${mute.title}”` : 'this thread';
  if (mute.kind === 'author') return `${mute.value} (${SOURCE_LABELS[mute.source]})`;
  return formatCommunity(mute.source, mute.value);
}

function MonitorsLink({ children }: { children: ReactNode }) {
  return (
    <p className="mt-6">
      <Link
        className="font-medium text-primary hover:underline"
        to={paths.login.href(paths.dashboard.monitors.href())}
      >
        {children}
      </Link>
    </p>
  );
}

/** The link pages' frame, asking with a muted bell. */
function Frame(props: { icon: LinkPageState; title: string; children: ReactNode }) {
  return <LinkPageFrame askIcon={BellOff} {...props} />;
}
