import normalizeUrl from 'normalize-url';
import type { Match } from './match.ts';
import { groupMatchesByItem, type MatchGroup } from './match-groups.ts';
import { type MatchHeadline, matchHeadline } from './match-view.ts';
import { formatCommunity, SOURCE_LABELS, type SourceName } from './sources.ts';

/**
 * One alert per conversation, one per link (docs/product.md, "Matches and alerts"; decision
 * 0037): the entries the feed, the emails and the webhooks show for a list of matches. Items
 * (`groupMatchesByItem`) of one thread (same site and `threadId`) are one entry; threads whose
 * post links the same page (`linkKey`) from several sites are one entry too, the first thread
 * leading and the others listed as "also on". Matches stay stored one per monitor and item;
 * this is how they are read. Pure: the same matches in the same order give the same entries.
 */
export type AlertEntry = {
  /**
   * Stable for the entry's lead thread: its site and thread id (or its item's key), after the
   * partition's name when there is one (one thread can be an entry in two monitors' partitions).
   */
  readonly key: string;
  /** Every item of the entry, in the order given (the lead thread's first). */
  readonly items: readonly MatchGroup[];
  /** Every match of the entry, in the order given. */
  readonly matches: readonly Match[];
  /** The item the entry is named by: the thread's post when it matched, else its first item. */
  readonly lead: MatchGroup;
  /** The lead thread, when the entry is more than one item of it; null for a lone item. */
  readonly thread: EntryThread | null;
  /** The same link on other sites (or other threads of it): one line each. */
  readonly alsoOn: readonly AlsoOn[];
  /** At most two items whose snippets show the hits best (most hits, then first given). */
  readonly best: readonly MatchGroup[];
  readonly read: boolean;
};

export type EntryThread = {
  readonly source: SourceName;
  readonly id: string;
  /** The post's title, when known. */
  readonly title: string | null;
  /** The thread on its site: the post's permalink, or one built from the thread id. */
  readonly permalink: string;
  /** Items of the thread in the entry: its post (when it matched) and its comments. */
  readonly count: number;
  readonly comments: number;
  /** Whether the post itself is among them. */
  readonly post: boolean;
};

export type AlsoOn = {
  readonly source: SourceName;
  readonly community: string | null;
  readonly permalink: string;
  /** Items of that thread in the entry. */
  readonly count: number;
};

/** Tracking parameters dropped from links before comparing them. */
const TRACKING = [/^utm_\w+/i, /^ref$/i, /^ref_src$/i, /^fbclid$/i, /^gclid$/i, /^mc_\w+$/i];

/**
 * The key two links share when they are "the same page": no scheme, no `www.`, no trailing
 * slash, no fragment, no tracking parameters (`utm_*`, `ref`, `fbclid`…), other parameters
 * sorted (normalize-url). Null for a value that is not an http(s) URL.
 */
export function linkKey(url: string | null): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return normalizeUrl(url, {
      stripProtocol: true,
      stripWWW: true,
      stripHash: true,
      removeTrailingSlash: true,
      removeSingleSlash: true,
      removeQueryParameters: TRACKING,
      sortQueryParameters: true,
    });
  } catch {
    return null;
  }
}

/**
 * The feed's partition: a conversation is one monitor's (issue 25), so items are kept apart by a
 * monitor that caught them, the same one for every item of that monitor alone (the least id).
 */
export const byMonitor = (item: MatchGroup): string => [...item.monitorIds].sort()[0] ?? '';

/** A thread's page on its site, from its id, where the site's links are built that way. */
export function threadPermalink(source: SourceName, id: string): string | null {
  switch (source) {
    case 'hackernews':
      return /^\d+$/.test(id) ? `https://news.ycombinator.com/item?id=${id}` : null;
    case 'reddit':
      return /^t3_[a-z0-9]+$/i.test(id) ? `https://www.reddit.com/comments/${id.slice(3)}/` : null;
    case 'lobsters':
      return /^[a-z0-9]+$/i.test(id) ? `https://lobste.rs/s/${id}` : null;
    default:
      return null;
  }
}

type Thread = { key: string; items: MatchGroup[] };

const threadKeyOf = (item: MatchGroup): string =>
  item.match.threadId ? `${item.match.source} ${item.match.threadId}` : item.key;

/**
 * Groups matches into entries: per item, then per thread, then per link; in first-seen order.
 * `partition` keeps items apart that it names differently (the email: one monitor's section).
 */
export function groupAlertEntries(
  matches: readonly Match[],
  options: { partition?: (item: MatchGroup) => string } = {},
): AlertEntry[] {
  const threads = new Map<string, Thread>();
  const partitionOf = new Map<Thread, string>();
  for (const item of groupMatchesByItem(matches)) {
    const part = options.partition?.(item) ?? '';
    const key = `${part}\u0000${threadKeyOf(item)}`;
    const thread = threads.get(key);
    if (thread) thread.items.push(item);
    else {
      const created = {
        key: part ? `${part} ${threadKeyOf(item)}` : threadKeyOf(item),
        items: [item],
      };
      threads.set(key, created);
      partitionOf.set(created, part);
    }
  }
  const byLink = new Map<string, Thread[]>();
  const entries: Thread[][] = [];
  for (const thread of threads.values()) {
    const post = thread.items.find((item) => item.match.kind === 'post');
    const url = linkKey(post?.match.url ?? null);
    const link = url === null ? null : `${partitionOf.get(thread) ?? ''}\u0000${url}`;
    const joined = link === null ? undefined : byLink.get(link);
    if (joined) {
      joined.push(thread);
      continue;
    }
    const entry = [thread];
    entries.push(entry);
    if (link !== null) byLink.set(link, entry);
  }
  return entries.map(toEntry);
}

function toEntry(threads: Thread[]): AlertEntry {
  const [first, ...others] = threads as [Thread, ...Thread[]];
  const items = threads.flatMap((thread) => thread.items);
  const lead =
    first.items.find((item) => item.match.kind === 'post') ?? (first.items[0] as MatchGroup);
  return {
    key: first.key,
    items,
    matches: items.flatMap((item) => item.matches),
    lead,
    thread: first.items.length > 1 ? describeThread(first, lead) : null,
    alsoOn: others.map((thread) => {
      const shown =
        thread.items.find((item) => item.match.kind === 'post') ?? (thread.items[0] as MatchGroup);
      return {
        source: shown.match.source,
        community: shown.match.community,
        permalink: shown.match.permalink,
        count: thread.items.length,
      };
    }),
    best: bestItems(items),
    read: items.every((item) => item.read),
  };
}

function describeThread(thread: Thread, lead: MatchGroup): EntryThread {
  const match = lead.match;
  const post = lead.match.kind === 'post';
  const id = match.threadId ?? '';
  return {
    source: match.source,
    id,
    title: post ? match.title : match.threadTitle,
    permalink: post ? match.permalink : (threadPermalink(match.source, id) ?? match.permalink),
    count: thread.items.length,
    comments: thread.items.filter((item) => item.match.kind === 'comment').length,
    post: thread.items.some((item) => item.match.kind === 'post'),
  };
}

/** The two items whose snippets carry the most hits (a snippet at all first); ties keep order. */
function bestItems(items: readonly MatchGroup[]): MatchGroup[] {
  return items
    .map((item, index) => ({ item, index }))
    .filter(({ item }) => item.snippet !== '')
    .sort((a, b) => b.item.highlights.length - a.item.highlights.length || a.index - b.index)
    .slice(0, 2)
    .map(({ item }) => item);
}

/**
 * How an entry is named: a lone item as `matchHeadline` names it; a conversation as "12 new
 * comments in “Show HN: …”", or, when its post matched too, the post's title and "and 11 new
 * comments" (the title's hits kept).
 */
export function entryHeadline(entry: AlertEntry): MatchHeadline {
  const own = matchHeadline(entry.lead.match);
  const thread = entry.thread;
  if (!thread) return own;
  const comments = `${thread.comments} new comment${thread.comments === 1 ? '' : 's'}`;
  if (thread.post) {
    return thread.comments > 0 ? { ...own, text: `${own.text} and ${comments}` } : own;
  }
  const where = thread.title ? `in “${thread.title}”` : 'in one thread';
  return { text: `${comments} ${where}`, highlights: [] };
}

/** "also on Reddit (r/programming), Lobsters"; null when the link is on no other thread. */
export function describeAlsoOn(alsoOn: readonly AlsoOn[]): string | null {
  if (alsoOn.length === 0) return null;
  const places = alsoOn.map((other) => {
    const label = SOURCE_LABELS[other.source];
    return other.community ? `${label} (${formatCommunity(other.source, other.community)})` : label;
  });
  return `also on ${[...new Set(places)].join(', ')}`;
}
