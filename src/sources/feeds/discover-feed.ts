import { Parser } from 'htmlparser2';
import { discourseRoot } from './discourse.ts';
import { type FeedDocument, type FeedEntry, type FeedKind, NotAFeedError } from './feed-entry.ts';
import { type FeedFetchOptions, fetchFeed } from './fetch-feed.ts';
import { parseFeedDocument } from './parse-feed.ts';

/** What a URL a user pasted turned out to be, and what it says now. */
export type DiscoveredFeed = {
  /** What the poller fetches: the feed's own address, or a Discourse forum's root. */
  readonly url: string;
  readonly kind: FeedKind;
  /** The document's title, else the host name. */
  readonly name: string;
  readonly entries: readonly FeedEntry[];
};

type FetchOptions = Omit<FeedFetchOptions, 'etag' | 'lastModified'>;

const FEED_TYPES = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/feed+json',
  'application/json',
  'application/rdf+xml',
  'application/xml',
  'text/xml',
]);

/**
 * Finds what `address` is (docs/product.md, "Feeds by URL"): a feed document (RSS, Atom, JSON
 * Feed), a Discourse forum (one of its JSON answers, or a page whose generator is Discourse), or an
 * HTML page that links a feed with `<link rel="alternate">`, which is then read. Throws
 * `NotAFeedError` or the fetch's `FeedFetchError`, each with a message for the user.
 */
export async function discoverFeed(
  address: string,
  options: FetchOptions,
): Promise<DiscoveredFeed> {
  const answer = await fetchFeed(address, options);
  if (answer.status !== 'ok') throw new NotAFeedError('not a feed');
  const text = answer.text;
  if (!looksLikeHtml(text)) {
    const document = parseFeedDocument(text, answer.url);
    if (document.kind === 'discourse')
      return readDiscourseForum(discourseRoot(answer.url), options);
    return described(answer.url, document);
  }
  const page = readHtmlHead(text);
  if (page.discourse) return readDiscourseForum(new URL(answer.url).origin, options);
  const link = page.feedLinks[0];
  if (link === undefined) throw new NotAFeedError('not a feed: the page links no feed');
  const feedUrl = new URL(link, answer.url).href;
  const feed = await fetchFeed(feedUrl, options);
  if (feed.status !== 'ok' || looksLikeHtml(feed.text)) {
    throw new NotAFeedError('not a feed: the feed the page links is not one');
  }
  return described(feed.url, parseFeedDocument(feed.text, feed.url));
}

/** The address a Discourse forum is polled at: its latest posts across all topics. */
export const discoursePostsUrl = (root: string) => `${root}/posts.json`;

/**
 * A Discourse forum: its latest posts (each new topic's first post among them) and, for the
 * preview, its latest topics; its name from /about.json, else its host.
 */
async function readDiscourseForum(root: string, options: FetchOptions): Promise<DiscoveredFeed> {
  const posts = await fetchFeed(discoursePostsUrl(root), options);
  if (posts.status !== 'ok') throw new NotAFeedError('not a Discourse forum');
  const entries = parseFeedDocument(posts.text, posts.url);
  if (entries.kind !== 'discourse') throw new NotAFeedError('not a Discourse forum');
  let name: string | null = null;
  try {
    const about = await fetchFeed(`${root}/about.json`, options);
    if (about.status === 'ok') name = parseFeedDocument(about.text, about.url).title;
  } catch {
    // The name is a nicety: a forum without /about.json is named by its host.
  }
  return {
    url: root,
    kind: 'discourse',
    name: name ?? new URL(root).host,
    entries: entries.entries,
  };
}

function described(url: string, document: FeedDocument): DiscoveredFeed {
  return {
    url,
    kind: document.kind,
    name: document.title ?? new URL(url).host,
    entries: document.entries,
  };
}

function looksLikeHtml(text: string): boolean {
  const head = text.slice(0, 1024).trimStart().toLowerCase();
  return (
    head.startsWith('<!doctype html') || head.startsWith('<html') || /<(head|body)[\s>]/u.test(head)
  );
}

/** The feeds a page links in its head, in order, and whether Discourse made it. */
function readHtmlHead(html: string): { feedLinks: string[]; discourse: boolean } {
  const feedLinks: string[] = [];
  let discourse = false;
  let done = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === 'body') done = true;
        if (name === 'meta' && attributes.name?.toLowerCase() === 'generator') {
          if (/^discourse\b/iu.test(attributes.content ?? '')) discourse = true;
        }
        const rel = attributes.rel?.toLowerCase().split(/\s+/u) ?? [];
        const type = attributes.type?.toLowerCase().split(';')[0]?.trim() ?? '';
        if (
          name === 'link' &&
          rel.includes('alternate') &&
          FEED_TYPES.has(type) &&
          attributes.href
        ) {
          feedLinks.push(attributes.href);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  // The head is at the start; a page of megabytes need not be read to its end.
  parser.end(html.slice(0, 256 * 1024));
  return { feedLinks, discourse };
}
