import { ArrowRight, Bell, Clock, Filter, Mail, Search, Sparkles } from 'lucide-react';
import { Link } from 'react-router';
import { Logo } from '../../components/logo.tsx';
import { Button } from '../../components/ui/button.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { paths } from '../../lib/paths.ts';
import { ProductPicture } from './product-picture.tsx';

const STEPS = [
  {
    title: 'Say what to listen for',
    body: 'Your product, your competitors, a technology, your own name. Plain words work; phrases, OR and exclusions are there when you need them.',
  },
  {
    title: 'Earshot reads everything',
    body: 'Every new post and comment on Hacker News, Reddit, Lobsters, Bluesky, Mastodon, GitHub, DEV, Stack Overflow and the forums and feeds you add is checked against your monitors the moment it appears.',
  },
  {
    title: 'Hear about it in seconds',
    body: 'Matches land in your dashboard live, with the words highlighted, and in one calm email instead of fifty.',
  },
];

const FEATURES = [
  {
    icon: Clock,
    title: 'Seconds, not hours',
    body: 'Free tools check every couple of hours. Earshot alerts you while the thread is still young enough to answer.',
  },
  {
    icon: Filter,
    title: 'No false alarms',
    body: 'Whole-word matching that understands “Rust’s” and ignores “trust”. Exclude words, authors and subreddits.',
  },
  {
    icon: Search,
    title: 'A real query language',
    body: '"open source", postgres OR mysql, -hiring, rust*, title:, site:, r/… — and a preview of what a query would have caught.',
  },
  {
    icon: Mail,
    title: 'Email that respects you',
    body: 'Instant, hourly or daily digests in your time zone. One click unsubscribes. Mute a monitor without losing its matches.',
  },
];

const AUDIENCES = [
  {
    who: 'Founders & marketers',
    what: 'Every mention of your product or a competitor, before the thread goes cold.',
  },
  {
    who: 'Developers & researchers',
    what: 'New discussions of the library, paper or technique you care about.',
  },
  {
    who: 'Support & community teams',
    what: 'The bug report or the frustrated user you would otherwise never see.',
  },
];

/**
 * The public home page (docs/product.md, "Screens"): what Earshot does, how, for whom; calls to
 * sign up and log in.
 */
export function HomePage() {
  usePageTitle(null);
  return (
    <div className="min-h-dvh bg-background text-foreground">
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-card focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <header className="mx-auto flex h-16 max-w-6xl items-center px-4 sm:px-6">
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

      <main id="content">
        <section className="relative overflow-hidden">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 -top-40 -z-10 mx-auto h-[32rem] max-w-4xl rounded-full bg-primary/15 blur-3xl"
          />
          <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pt-12 pb-20 sm:px-6 md:pt-20 lg:grid-cols-[1.1fr_1fr]">
            <div>
              <p className="inline-flex items-center gap-2 rounded-full border bg-card px-3 py-1 text-xs font-medium text-muted-foreground">
                <Sparkles className="size-3.5 text-primary" aria-hidden="true" />
                Hacker News · Reddit · Lobsters
              </p>
              <h1 className="mt-5 text-4xl font-bold tracking-tight text-balance sm:text-5xl lg:text-6xl">
                Hear every mention, <span className="text-primary">within seconds.</span>
              </h1>
              <p className="mt-5 max-w-xl text-lg text-pretty text-muted-foreground">
                Earshot watches the discussion sites your customers read for the words you care
                about, and tells you the moment they come up — in your dashboard and by email.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Button asChild size="lg">
                  <Link to={paths.signup.href()}>
                    Start listening — it’s free
                    <ArrowRight />
                  </Link>
                </Button>
                <Button asChild size="lg" variant="outline">
                  <Link to={paths.login.href()}>Log in</Link>
                </Button>
              </div>
              <p className="mt-4 text-sm text-muted-foreground">
                No credit card. Your first monitor takes a minute.
              </p>
            </div>
            <SampleAlert />
          </div>
        </section>

        <section aria-labelledby="how" className="border-y bg-muted/40">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
            <h2 id="how" className="text-2xl font-semibold tracking-tight sm:text-3xl">
              How it works
            </h2>
            <ol className="mt-8 grid gap-6 md:grid-cols-3">
              {STEPS.map((step, index) => (
                <li key={step.title} className="rounded-xl border bg-card p-6 shadow-sm">
                  <span className="inline-flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground">
                    {index + 1}
                  </span>
                  <h3 className="mt-4 font-semibold">{step.title}</h3>
                  <p className="mt-2 text-sm text-muted-foreground">{step.body}</p>
                </li>
              ))}
            </ol>
          </div>
        </section>

        <section aria-labelledby="see" className="mx-auto max-w-6xl px-4 pt-16 sm:px-6">
          <h2 id="see" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            What you will see
          </h2>
          <p className="mt-2 max-w-2xl text-muted-foreground">
            Every mention in one feed, newest first, the words you listen for highlighted, and new
            ones arriving while you read.
          </p>
          <div className="mt-8">
            <ProductPicture />
          </div>
        </section>

        <section aria-labelledby="why" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="why" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            Built for people who act on what they hear
          </h2>
          <div className="mt-8 grid gap-6 sm:grid-cols-2">
            {FEATURES.map(({ icon: Icon, title, body }) => (
              <div key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-foreground">
                  <Icon className="size-5" aria-hidden="true" />
                </span>
                <div>
                  <h3 className="font-semibold">{title}</h3>
                  <p className="mt-1 text-sm text-muted-foreground">{body}</p>
                </div>
              </div>
            ))}
          </div>
        </section>

        <section aria-labelledby="who" className="mx-auto max-w-6xl px-4 pb-16 sm:px-6">
          <h2 id="who" className="text-2xl font-semibold tracking-tight sm:text-3xl">
            Who listens with Earshot
          </h2>
          <ul className="mt-8 grid gap-4 md:grid-cols-3">
            {AUDIENCES.map((audience) => (
              <li key={audience.who} className="rounded-xl border p-6">
                <p className="font-semibold">{audience.who}</p>
                <p className="mt-2 text-sm text-muted-foreground">{audience.what}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="mx-auto max-w-6xl px-4 pb-20 sm:px-6">
          <div className="flex flex-col items-start gap-6 rounded-2xl bg-primary px-6 py-10 text-primary-foreground sm:px-10 md:flex-row md:items-center">
            <div>
              <h2 className="text-2xl font-semibold tracking-tight">
                Stop refreshing. Start hearing.
              </h2>
              <p className="mt-2 opacity-90">
                Set up your first monitor in a minute and get the next mention as it happens.
              </p>
            </div>
            <Button asChild size="lg" variant="secondary" className="md:ml-auto">
              <Link to={paths.signup.href()}>
                Create your account
                <ArrowRight />
              </Link>
            </Button>
          </div>
        </section>
      </main>

      <footer className="border-t">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-8 text-sm text-muted-foreground sm:px-6">
          <Logo className="text-base" />
          <span>
            Alerts for Hacker News, Reddit, Lobsters, Bluesky, Mastodon, GitHub, DEV, Stack
            Overflow, forums and feeds.
          </span>
          <nav aria-label="More" className="flex gap-4 sm:ml-auto">
            <Link to={paths.about.href()} className="hover:text-foreground">
              About and privacy
            </Link>
            <Link to={paths.login.href()} className="hover:text-foreground">
              Log in
            </Link>
          </nav>
        </div>
      </footer>
    </div>
  );
}

/** A still picture of what an alert looks like (static copy, not live data). */
function SampleAlert() {
  return (
    <figure aria-label="Example of an Earshot alert" className="relative mx-auto w-full max-w-md">
      <div className="rounded-2xl border bg-card p-5 shadow-xl shadow-primary/10">
        <div className="flex items-center gap-2 text-xs text-muted-foreground">
          <Bell className="size-4 text-primary" aria-hidden="true" />
          <span className="font-medium text-foreground">pglite OR "embedded postgres"</span>
          <span className="ml-auto">12 s ago</span>
        </div>
        <p className="mt-4 text-sm font-semibold">
          Show HN: We replaced SQLite with PGlite in our desktop app
        </p>
        <p className="mt-2 text-sm text-muted-foreground">
          …after six months of running{' '}
          <mark className="rounded bg-primary/15 px-0.5 text-foreground">PGlite</mark> in
          production, migrations are the part we like most…
        </p>
        <div className="mt-4 flex items-center gap-2 text-xs text-muted-foreground">
          <span className="rounded-full bg-orange-500/15 px-2 py-0.5 font-medium text-orange-900 dark:text-orange-200">
            Hacker News
          </span>
          <span>by a_founder</span>
        </div>
      </div>
      <div className="absolute -right-3 -bottom-6 hidden w-56 rounded-xl border bg-card p-3 text-xs shadow-lg sm:block">
        <p className="font-medium">r/PostgreSQL</p>
        <p className="mt-1 text-muted-foreground">
          “Has anyone tried{' '}
          <mark className="rounded bg-primary/15 px-0.5 text-foreground">embedded Postgres</mark>{' '}
          for tests?”
        </p>
      </div>
    </figure>
  );
}
