import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { LinkPageFrame as Frame } from '../../components/link-page-frame.tsx';
import { Button } from '../../components/ui/button.tsx';
import { addressSecret } from '../../lib/address-secrets.ts';
import { describeApiError } from '../../lib/api.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { useUnsubscribeMutation } from './unsubscribe-api.ts';

const SETTINGS_AFTER_SIGN_IN = paths.login.href(paths.dashboard.settings.href());

/**
 * `/unsubscribe?token=…`, the visible link of every alert email (and where the List-Unsubscribe
 * link leads in a browser): asks for one click, then turns email alerts off without signing in
 * and says plainly what happened, with the way back (sign in, then Settings). Nothing changes on
 * load, because mail scanners open the links of a message.
 */
export function UnsubscribePage() {
  usePageTitle('Unsubscribe');
  const [params] = useSearchParams();
  // The token left the address bar at start (address-secrets.ts); an address typed later keeps it.
  const token = (params.get('token') ?? addressSecret('token'))?.trim() ?? '';
  const [unsubscribe, result] = useUnsubscribeMutation();

  if (token === '') {
    return (
      <Frame icon="problem" title="This unsubscribe link is incomplete">
        <p>
          The link has no token; it may have been cut short. Open the link from the email again, or
          sign in and choose when Earshot emails you in Settings.
        </p>
        <SettingsLink>Sign in to change email alerts</SettingsLink>
      </Frame>
    );
  }
  if (result.isUninitialized) {
    return (
      <Frame icon="ask" title="Stop alert emails?">
        <p>
          Earshot will stop sending you alert emails. Your monitors keep collecting matches, and you
          can read them in your dashboard at any time.
        </p>
        <Button className="mt-4" onClick={() => void unsubscribe(token)}>
          Unsubscribe
        </Button>
        <SettingsLink>Choose how often instead (sign in, then Settings)</SettingsLink>
      </Frame>
    );
  }
  if (result.isLoading) {
    return (
      <Frame icon="busy" title="Unsubscribing…">
        <p>Turning off alert emails.</p>
      </Frame>
    );
  }
  if (result.error) {
    const status =
      typeof result.error === 'object' && 'status' in result.error ? result.error.status : null;
    return (
      <Frame
        icon="problem"
        title={
          status === 400 ? 'This unsubscribe link does not work' : 'We could not unsubscribe you'
        }
      >
        <p>{describeApiError(result.error)}</p>
        {status === 400 ? null : (
          <Button className="mt-4" variant="outline" onClick={() => void unsubscribe(token)}>
            Try again
          </Button>
        )}
        <SettingsLink>Sign in to change email alerts</SettingsLink>
      </Frame>
    );
  }
  return (
    <Frame icon="done" title="You are unsubscribed">
      <p>
        Earshot will not send you alert emails any more. Your monitors keep collecting matches, and
        you can read them in your dashboard at any time.
      </p>
      <SettingsLink>Turn alerts back on (sign in, then Settings)</SettingsLink>
    </Frame>
  );
}

function SettingsLink({ children }: { children: ReactNode }) {
  return (
    <p className="mt-6">
      <Link className="font-medium text-primary hover:underline" to={SETTINGS_AFTER_SIGN_IN}>
        {children}
      </Link>
    </p>
  );
}
