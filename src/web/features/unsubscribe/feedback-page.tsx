import { Link, useSearchParams } from 'react-router';
import { LinkPageFrame as Frame } from '../../components/link-page-frame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { addressSecret } from '../../lib/address-secrets.ts';
import { describeApiError } from '../../lib/api.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { useApplyRatingLinkMutation, useReadRatingLinkQuery } from './unsubscribe-api.ts';

const ALERTS_AFTER_SIGN_IN = paths.login.href(paths.dashboard.alerts.href());
const WORDS = { relevant: 'relevant', irrelevant: 'not relevant' } as const;

/**
 * `/feedback?token=…`, an alert email's "Relevant" or "Not relevant" link: names the alert and
 * asks for one click (mail scanners open every link, so nothing changes on load), then says it
 * is done and offers Undo. The token is the proof; no sign-in.
 */
export function FeedbackPage() {
  usePageTitle('Rate an alert');
  const [params] = useSearchParams();
  const token = (params.get('token') ?? addressSecret('token'))?.trim() ?? '';
  const link = useReadRatingLinkQuery(token, { skip: token === '' });
  const [apply, result] = useApplyRatingLinkMutation();
  const error = link.error ?? result.error;

  if (token === '' || error) {
    return (
      <Frame icon="problem" title="This rating link does not work">
        <p>
          {error
            ? describeApiError(error)
            : 'The link has no token; it may have been cut short. Open it from the email again.'}
        </p>
        <AlertsLink />
      </Frame>
    );
  }
  if (!link.data || result.isLoading) {
    return (
      <Frame icon="busy" title="One moment…">
        <p>Reading the link.</p>
      </Frame>
    );
  }
  const words = WORDS[link.data.rating];
  const title = link.data.title || 'this alert';
  if (result.isUninitialized) {
    return (
      <Frame icon="ask" title={`Mark as ${words}?`}>
        <p>“{title}”. Your monitor learns from it and scores its other alerts again.</p>
        <Button className="mt-4" onClick={() => void apply({ token, undo: false })}>
          Mark as {words}
        </Button>
        <AlertsLink />
      </Frame>
    );
  }
  if (result.data?.current === null) {
    return (
      <Frame icon="done" title="Rating taken back">
        <p>“{title}” is not rated any more.</p>
        <Button
          className="mt-4"
          variant="outline"
          onClick={() => void apply({ token, undo: false })}
        >
          Mark as {words} again
        </Button>
        <AlertsLink />
      </Frame>
    );
  }
  return (
    <Frame icon="done" title={`Marked as ${words}`}>
      <p>“{title}”. Your monitor learns from it.</p>
      <Button className="mt-4" variant="outline" onClick={() => void apply({ token, undo: true })}>
        Undo
      </Button>
      <AlertsLink />
    </Frame>
  );
}

function AlertsLink() {
  return (
    <p className="mt-6">
      <Link className="font-medium text-primary hover:underline" to={ALERTS_AFTER_SIGN_IN}>
        See your alerts (sign in)
      </Link>
    </p>
  );
}
