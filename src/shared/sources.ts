/**
 * The sites Earshot reads (docs/product.md, "Sources"), as data: the one list every part of the
 * product reads (the query language's `site:`, normalised items, monitors, matches, the health
 * line, the email, the monitor form, the feed's filters and the chart). A site's code lives in
 * its folder under `src/sources/<site>/` and is listed once in `src/sources/registry.ts`; what
 * people see of it (and what the browser needs) is its descriptor here. Adding a site is one
 * folder, one line in the registry and one descriptor below (decision "sources as data").
 */
export type SourceDescriptor<Name extends string = string> = {
  /** The name in `SOURCES`, `site:`, the API and the database. Never changes once shipped. */
  readonly name: Name;
  /** How the site is named to people. */
  readonly label: string;
  /** Other spellings `site:` accepts (the site's domain, a short name). */
  readonly aliases: readonly string[];
  /** The site's mark on a badge: one or two characters. */
  readonly icon: string;
  /** The badge's and the chart's colour, `#rrggbb` (white text must read on it). */
  readonly colour: string;
  /** How a community (subreddit, tag) is written: `r/rust`, `#rust`. */
  readonly communityPrefix: string;
  /** Seconds between two polls unless its `<SITE>_POLL_SECONDS` says otherwise. */
  readonly defaultPollSeconds: number;
  /**
   * For a site that needs a credential: the one line that tells an operator how to turn it on,
   * shown with "not configured" in the health line. Null when it needs none.
   */
  readonly howToConfigure: string | null;
};

const describe = <const Name extends string>(descriptor: SourceDescriptor<Name>) => descriptor;

export const SOURCE_DESCRIPTORS = [
  describe({
    name: 'hackernews',
    label: 'Hacker News',
    aliases: ['hn', 'news.ycombinator.com'],
    icon: 'Y',
    colour: '#ea580c',
    communityPrefix: '',
    defaultPollSeconds: 5,
    howToConfigure: null,
  }),
  describe({
    name: 'reddit',
    label: 'Reddit',
    aliases: ['reddit.com'],
    icon: 'r',
    colour: '#c2410c',
    communityPrefix: 'r/',
    defaultPollSeconds: 2,
    howToConfigure:
      'set REDDIT_CLIENT_ID and REDDIT_CLIENT_SECRET (the credentials of a Reddit "script" app)',
  }),
  describe({
    name: 'lobsters',
    label: 'Lobsters',
    aliases: ['lobste.rs'],
    icon: 'L',
    colour: '#991b1b',
    communityPrefix: '',
    defaultPollSeconds: 30,
    howToConfigure: null,
  }),
  describe({
    name: 'devto',
    label: 'DEV',
    aliases: ['dev', 'dev.to', 'forem'],
    icon: 'D',
    colour: '#0a0a0a',
    communityPrefix: '#',
    defaultPollSeconds: 30,
    howToConfigure: null,
  }),
  describe({
    name: 'mastodon',
    label: 'Mastodon',
    aliases: ['fediverse', 'mastodon.social'],
    icon: 'M',
    colour: '#5b21b6',
    // No communities: an instance is not a topic, and hashtags are in the text.
    communityPrefix: '',
    defaultPollSeconds: 10,
    howToConfigure: null,
  }),
  describe({
    name: 'github',
    label: 'GitHub',
    aliases: ['gh', 'github.com'],
    icon: 'G',
    colour: '#1f2937',
    // The repository (`owner/name`) is the community; `r/` names subreddits and tags, not repositories.
    communityPrefix: '',
    defaultPollSeconds: 60,
    howToConfigure: null,
  }),
  // The feeds and Discourse forums users add by URL: each polled on its own (5 minutes to 6
  // hours, adapting), its items matched only for the users who added it.
  describe({
    name: 'feeds',
    label: 'Feeds',
    aliases: ['feed', 'rss', 'forums'],
    icon: 'F',
    colour: '#b45309',
    communityPrefix: '',
    defaultPollSeconds: 300,
    howToConfigure: null,
  }),
  describe({
    name: 'bluesky',
    label: 'Bluesky',
    aliases: ['bsky', 'bsky.app', 'bsky.social'],
    icon: 'B',
    colour: '#1d4ed8',
    // No communities: feeds are not topics, and hashtags are in the text.
    communityPrefix: '',
    // Jetstream pushes: the "poll" is how long a read waits for the next events.
    defaultPollSeconds: 1,
    howToConfigure: null,
  }),
  // Stack Exchange's API: new questions, answers and comments of STACKEXCHANGE_SITES. Without
  // STACKEXCHANGE_KEY an address has 300 requests a day, so the poll stretches as they run short.
  describe({
    name: 'stackoverflow',
    label: 'Stack Overflow',
    aliases: ['so', 'stackoverflow.com', 'stackexchange'],
    icon: 'S',
    colour: '#9a3412',
    // The question's first tag is the community, written as DEV writes tags.
    communityPrefix: '#',
    defaultPollSeconds: 60,
    howToConfigure: null,
  }),
] as const;

export type SourceName = (typeof SOURCE_DESCRIPTORS)[number]['name'];

export const SOURCE_NAMES = SOURCE_DESCRIPTORS.map((descriptor) => descriptor.name) as [
  SourceName,
  ...SourceName[],
];

const BY_NAME = new Map<string, SourceDescriptor<SourceName>>(
  SOURCE_DESCRIPTORS.map((descriptor) => [descriptor.name, descriptor]),
);

/** The descriptor of a known source. */
export function sourceDescriptor(name: SourceName): SourceDescriptor<SourceName> {
  return BY_NAME.get(name) as SourceDescriptor<SourceName>;
}

/** How a source is named to people. */
export const SOURCE_LABELS = Object.fromEntries(
  SOURCE_DESCRIPTORS.map((descriptor) => [descriptor.name, descriptor.label]),
) as Record<SourceName, string>;

export function isSourceName(value: string): value is SourceName {
  return BY_NAME.has(value);
}

/** What `site:` accepts, lower case: every name and alias to its source. */
export const SITE_ALIASES: ReadonlyMap<string, SourceName> = new Map(
  SOURCE_DESCRIPTORS.flatMap((descriptor) =>
    [descriptor.name, ...descriptor.aliases].map((alias) => [alias, descriptor.name] as const),
  ),
);

/**
 * Whether a monitor's stored sources mean "every site": none stored (the default, decision
 * "sources as data"), so that a site added later is watched too.
 */
export function watchesEverySite(sources: readonly string[]): boolean {
  return sources.length === 0;
}

/** "Hacker News, Reddit and Lobsters". */
export function listSourceLabels(names: readonly SourceName[] = SOURCE_NAMES): string {
  const labels = names.map((name) => SOURCE_LABELS[name]);
  return labels.length <= 1
    ? labels.join('')
    : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** A community as its site writes it: `r/rust` on Reddit, `#rust` on DEV. */
export function formatCommunity(source: SourceName, community: string): string {
  return `${sourceDescriptor(source).communityPrefix}${community}`;
}
