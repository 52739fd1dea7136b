import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { PublicConfig } from '../../../shared/public-config.ts';
import { listSourceLabels, SOURCE_DESCRIPTORS } from '../../../shared/sources.ts';
import { Logo } from '../../components/logo.tsx';
import { Button } from '../../components/ui/button.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { loadRuntimeConfig } from '../../lib/runtime-config.ts';

/** The sites that need no credential: listing them in SOURCES is enough. */
const OPEN_SITES = SOURCE_DESCRIPTORS.filter((site) => site.howToConfigure === null).map(
  (site) => site.name,
);

/**
 * `/about`: what Earshot is, what it keeps about a user, what it sends where, how to delete an
 * account, and how each site is turned on (linked from the monitor form's "not configured").
 * Whether analytics is on is read from this server's configuration, not assumed.
 */
export function AboutPage() {
  usePageTitle('About and privacy');
  const analytics = useAnalyticsSetting();
  return (
    <div className="min-h-dvh bg-background text-foreground">
      <header className="mx-auto flex h-16 max-w-3xl items-center px-4 sm:px-6">
        <Link to={paths.home.href()} aria-label="Earshot home" className="rounded-md">
          <Logo />
        </Link>
        <nav aria-label="Account" className="ml-auto flex items-center gap-2">
          <Button asChild variant="ghost">
            <Link to={paths.login.href()}>Log in</Link>
          </Button>
          <Button asChild>
            <Link to={paths.signup.href()}>Sign up free</Link>
          </Button>
        </nav>
      </header>
      <main className="mx-auto max-w-3xl px-4 pt-6 pb-16 sm:px-6" data-testid="about-page">
        <h1 className="text-3xl font-bold tracking-tight">About Earshot and your data</h1>
        <p className="mt-3 text-muted-foreground">
          Earshot watches {listSourceLabels()} for the words you choose and tells you within
          seconds, in your dashboard and by email. This page says what it keeps about you, what it
          sends where, and how to remove it all.
        </p>

        <Section id="stores" title="What Earshot stores">
          <ul className="grid gap-2">
            <Item term="Your account">
              your email address, first and last name, when and how you want alert emails, and your
              time zone. With Earshot’s own sign-in also a salted hash of your password (never the
              password) and your sign-in sessions; where this Earshot uses Amazon Cognito, Cognito
              keeps those instead.
            </Item>
            <Item term="Your monitors">
              each query, its name, the sites it watches and its switches, and a webhook’s address
              and signing secret if you add one.
            </Item>
            <Item term="Your alerts">
              for every post or comment a monitor caught: its title, a snippet of about 300
              characters, its links, author and community as the site published them, and whether
              you have read it.
            </Item>
            <Item term="Posts read from the sites">
              public posts and comments, kept for 14 days by default to match and to preview
              queries, then deleted.
            </Item>
            <Item term="Emails and webhook calls">
              each one waits in an outbox until it is sent; a copy is kept for 30 days after, for
              support questions.
            </Item>
          </ul>
        </Section>

        <Section id="sends" title="What it sends, and where">
          <ul className="grid gap-2">
            <Item term="Email">
              alert emails, as you choose in Settings, and the codes that confirm your address or
              reset your password, to your address, through the mail server this Earshot is set up
              with (where it uses Amazon Cognito, Cognito sends the codes). Every alert email has a
              one-click unsubscribe link.
            </Item>
            <Item term="Webhooks">
              only if you add one to a monitor: that monitor’s alerts go to the address you gave
              (Slack, Discord or your own endpoint), signed so it can check they came from here.
            </Item>
            <Item term="Analytics">
              only when this Earshot is set up with a PostHog key: page views, errors and a
              recording of the app’s screens (with typed text masked) go to PostHog, with your
              account id and email once you sign in. Without a key the analytics code is never even
              downloaded.{' '}
              <span data-testid="analytics-setting" className="font-medium text-foreground">
                {analytics === undefined
                  ? ''
                  : analytics === null
                    ? 'On this Earshot, analytics is off.'
                    : `On this Earshot, analytics is on (${analytics.host}).`}
              </span>
            </Item>
            <Item term="The sites">
              Earshot only reads {listSourceLabels()}. Your queries are matched on this server;
              nothing about you is sent to the sites.
            </Item>
          </ul>
        </Section>

        <Section id="delete" title="How to delete your account">
          <p>
            Sign in, open <strong>Settings</strong> and choose <strong>Delete my account</strong>.
            Your account, monitors, alerts, webhooks and the outbox’s copies are removed at once,
            and your sign-in with them; it cannot be undone. To stop emails only, use the
            unsubscribe link in any alert email, or set email alerts to Off in Settings.
          </p>
        </Section>

        <Section id="sites" title="Which sites this Earshot reads">
          <p>
            The monitor form shows each site’s state. A site that is <em>not configured</em> is
            turned off by whoever runs this Earshot: {listSourceLabels(OPEN_SITES)} need nothing but
            to be listed in <code>SOURCES</code> (every site is by default). Reddit also needs
            app-only credentials, since it refuses anonymous readers:
          </p>
          <ol className="mt-3 grid list-decimal gap-1.5 pl-6">
            <li>
              Sign in to Reddit with the account that will own the app and open{' '}
              <a
                className="font-medium text-primary underline-offset-2 hover:underline"
                href="https://www.reddit.com/prefs/apps"
                rel="noopener noreferrer"
                target="_blank"
              >
                reddit.com/prefs/apps
              </a>
              .
            </li>
            <li>
              Choose “create another app…”, give it a name, pick <strong>script</strong>, and enter{' '}
              <code>http://localhost</code> as the redirect URI (Earshot never uses it).
            </li>
            <li>
              Create it. The client id is the string under the app’s name; the secret is labelled
              “secret”.
            </li>
            <li>
              Set <code>REDDIT_CLIENT_ID</code> and <code>REDDIT_CLIENT_SECRET</code> in Earshot’s
              environment (or its <code>.env</code> file) and restart it. Reddit shows as working
              within a few seconds; refused credentials show as failing, with Reddit’s reason.
            </li>
          </ol>
          <p className="mt-3">
            A site shown as <em>failing</em> could not be reached on its last try; Earshot keeps
            retrying and catches up on what it missed once the site answers again.
          </p>
        </Section>
      </main>
    </div>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mt-10 text-sm leading-relaxed">
      <h2 id={id} className="mb-3 scroll-mt-6 text-xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  );
}

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <li>
      <strong className="font-semibold">{term}:</strong> {children}
    </li>
  );
}

/** This server's analytics setting: undefined while it loads, null when off. */
function useAnalyticsSetting(): PublicConfig['analytics'] | undefined {
  const [setting, setSetting] = useState<PublicConfig['analytics'] | undefined>(undefined);
  useEffect(() => {
    let current = true;
    loadRuntimeConfig()
      .then((config) => {
        if (current) setSetting(config.analytics);
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, []);
  return setting;
}
