import { parseFeed } from 'feedsmith';
import { htmlToText } from '../text/html-to-text.ts';
import { isDiscourseAnswer, parseDiscourseAnswer } from './discourse.ts';
import {
  entryIdentity,
  type FeedDocument,
  type FeedEntry,
  isoDate,
  NotAFeedError,
  resolveLink,
} from './feed-entry.ts';

/**
 * At most this many entries are read from one document, the first ones (feeds list the newest
 * first): a feed of 10,000 entries is read, not refused, and costs a bounded store.
 */
export const MAX_ENTRIES_PER_DOCUMENT = 1000;

/**
 * A fetched document (RSS 2.0 or 0.9x, RDF, Atom 1.0, JSON Feed 1.x, or a Discourse JSON answer) to
 * its entries, with links resolved against `address`, where it was fetched from. Throws
 * `NotAFeedError` for anything else. feedsmith (decision "feed parser") reads the formats and
 * leaves entity expansion off, so a document that declares entities (the "billion laughs") is
 * read without expanding them.
 */
export function parseFeedDocument(text: string, address: string): FeedDocument {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      throw new NotAFeedError('not a feed: the JSON cannot be read');
    }
    if (isDiscourseAnswer(json)) return parseDiscourseAnswer(json, address);
    return fromFeedsmith(json, address);
  }
  if (!trimmed.startsWith('<')) throw new NotAFeedError('not a feed');
  return fromFeedsmith(trimmed, address);
}

type Parsed = ReturnType<typeof parseFeed>;

function fromFeedsmith(value: unknown, address: string): FeedDocument {
  let parsed: Parsed;
  try {
    parsed = parseFeed(value);
  } catch (error) {
    const what = error instanceof Error ? error.message.toLowerCase() : '';
    throw new NotAFeedError(
      what.includes('unrecognized') || what.includes('format')
        ? 'not a feed'
        : 'not a feed: the document cannot be read',
    );
  }
  switch (parsed.format) {
    case 'rss':
    case 'rdf': {
      const feed = parsed.feed;
      const base = resolveLink(feed.link, address) ?? address;
      const items = (feed.items ?? []) as readonly RssLikeItem[];
      return {
        kind: 'rss',
        title: textOf(feed.title),
        entries: items.slice(0, MAX_ENTRIES_PER_DOCUMENT).map((item) => rssEntry(item, base)),
      };
    }
    case 'atom': {
      const feed = parsed.feed;
      const base = resolveLink(feed.xml?.base, address) ?? address;
      return {
        kind: 'atom',
        title: textOf(feed.title?.value),
        entries: (feed.entries ?? [])
          .slice(0, MAX_ENTRIES_PER_DOCUMENT)
          .map((entry) => atomEntry(entry, base)),
      };
    }
    case 'json': {
      const feed = parsed.feed;
      const base = resolveLink(feed.home_page_url, address) ?? address;
      return {
        kind: 'json',
        title: textOf(feed.title),
        entries: (feed.items ?? [])
          .slice(0, MAX_ENTRIES_PER_DOCUMENT)
          .map((item) => jsonFeedEntry(item, base)),
      };
    }
  }
}

/** What RSS 2.0 and RDF items have in common, as feedsmith gives them. */
type RssLikeItem = {
  readonly title?: string;
  readonly link?: string;
  readonly description?: string;
  readonly authors?: readonly ({ readonly name?: string } | string)[];
  readonly guid?: { readonly value?: string };
  readonly pubDate?: string;
  readonly content?: { readonly encoded?: string };
  readonly dc?: { readonly creators?: readonly string[]; readonly dates?: readonly string[] };
  readonly about?: string;
};

function rssEntry(item: RssLikeItem, base: string): FeedEntry {
  const title = textOf(item.title);
  const date = item.pubDate ?? item.dc?.dates?.[0];
  const permalink = resolveLink(item.link, base) ?? resolveLink(item.about, base);
  const author = item.authors?.[0];
  return {
    externalId: entryIdentity({ id: item.guid?.value, link: permalink, title, date }),
    kind: 'post',
    title,
    body: htmlText(item.content?.encoded ?? item.description),
    permalink,
    author:
      textOf(typeof author === 'string' ? author : author?.name) ?? textOf(item.dc?.creators?.[0]),
    parentExternalId: null,
    createdAt: isoDate(date),
  };
}

type AtomEntry = NonNullable<Extract<Parsed, { format: 'atom' }>['feed']['entries']>[number];

function atomEntry(entry: AtomEntry, feedBase: string): FeedEntry {
  const base = resolveLink(entry.xml?.base, feedBase) ?? feedBase;
  const title = textOf(entry.title?.value);
  const alternate =
    entry.links?.find((link) => (link.rel ?? 'alternate') === 'alternate' && link.href?.trim()) ??
    entry.links?.find((link) => link.href?.trim());
  const permalink = resolveLink(alternate?.href, base);
  const date = dateText(entry.published) ?? dateText(entry.updated);
  return {
    externalId: entryIdentity({ id: entry.id, link: permalink, title, date }),
    kind: 'post',
    title,
    body: htmlText(entry.content?.value ?? entry.summary?.value),
    permalink,
    author: textOf(entry.authors?.[0]?.name),
    parentExternalId: null,
    createdAt: isoDate(date),
  };
}

type JsonFeedItem = NonNullable<Extract<Parsed, { format: 'json' }>['feed']['items']>[number];

function jsonFeedItemAuthor(item: JsonFeedItem): string | undefined {
  const legacy = (item as { readonly author?: { readonly name?: string } }).author;
  return item.authors?.[0]?.name ?? legacy?.name;
}

function jsonFeedEntry(item: JsonFeedItem, base: string): FeedEntry {
  const title = textOf(item.title);
  const permalink = resolveLink(item.url, base) ?? resolveLink(item.external_url, base);
  const date = dateText(item.date_published) ?? dateText(item.date_modified);
  const body = item.content_html
    ? htmlText(item.content_html)
    : (item.content_text ?? item.summary ?? '').trim();
  return {
    externalId: entryIdentity({ id: item.id, link: permalink, title, date }),
    kind: 'post',
    title,
    body,
    permalink,
    author: textOf(jsonFeedItemAuthor(item)),
    parentExternalId: null,
    createdAt: isoDate(date),
  };
}

/** A title or name as text: entities decoded, any markup gone; null when empty. */
export function textOf(value: string | null | undefined): string | null {
  if (typeof value !== 'string') return null;
  const text = /[<&]/u.test(value) ? htmlText(value) : value.replace(/\s+/gu, ' ').trim();
  const line = text.replace(/\s+/gu, ' ').trim();
  return line === '' ? null : line;
}

/** HTML (or plain text, which is HTML without tags) to text. */
function htmlText(value: string | null | undefined): string {
  return typeof value === 'string' && value.trim() !== '' ? htmlToText(value) : '';
}

/** A date field as feedsmith gives it (a string unless told otherwise). */
function dateText(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
