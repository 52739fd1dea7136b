import {
  type AtomFeed,
  generateAtomFeed,
  generateJsonFeed,
  generateRssFeed,
  type JsonFeed,
  type RssFeed,
} from 'feedsmith';
import { Fragment } from 'react';
import { html, renderHtmlFragment } from '../../platform/html.ts';
import type { AlertFeedFormat } from '../../shared/alert-feeds.ts';
import { highlightSegments } from '../../shared/highlight-segments.ts';
import type { Match } from '../../shared/match.ts';
import { groupMatchesByItem, type MatchGroup } from '../../shared/match-groups.ts';
import { matchHeadline } from '../../shared/match-view.ts';
import { SOURCE_LABELS } from '../../shared/sources.ts';

/** What a feed is about and where it lives; `selfUrls` are its own URLs in each format. */
export type AlertFeedHead = {
  readonly title: string;
  readonly description: string;
  /** The dashboard page the feed mirrors. */
  readonly homeUrl: string;
  readonly selfUrls: Record<AlertFeedFormat, string>;
  /** When the feed's link was made: its `updated` while it has no match. */
  readonly since: Date;
};

export type RenderedFeed = { readonly body: string; readonly contentType: string };

const CONTENT_TYPES: Record<AlertFeedFormat, string> = {
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  json: 'application/feed+json; charset=utf-8',
};

/** One entry of a feed: an item, once, however many of the feed's monitors caught it. */
type Entry = {
  readonly id: string;
  readonly title: string;
  readonly link: string;
  readonly author: string | null;
  readonly published: Date;
  readonly updated: Date;
  readonly site: string;
  readonly siteLabel: string;
  readonly html: string;
  readonly text: string;
};

/**
 * A feed of matches, newest first, in one of the three formats, made by feedsmith's generators
 * (which escape text for XML). Each entry is titled as every alert names its item (a comment by
 * its thread), links to the item, and carries the snippet as HTML with each hit in `<mark>`
 * (user text escaped first) and as plain text, and its site as a category. Nothing in it depends
 * on the time of the request, so the same matches give the same bytes (and ETag).
 */
export function renderAlertFeed(
  format: AlertFeedFormat,
  head: AlertFeedHead,
  matches: readonly Match[],
): RenderedFeed {
  const entries = groupMatchesByItem(matches).map(toEntry);
  const updated =
    entries.reduce<Date | null>(
      (latest, entry) => (latest && latest > entry.updated ? latest : entry.updated),
      null,
    ) ?? head.since;
  const body =
    format === 'rss'
      ? generateRssFeed(rssFeed(head, entries, updated))
      : format === 'atom'
        ? generateAtomFeed(atomFeed(head, entries, updated))
        : JSON.stringify(generateJsonFeed(jsonFeed(head, entries)));
  return { body, contentType: CONTENT_TYPES[format] };
}

function toEntry(group: MatchGroup): Entry {
  const { match } = group;
  const siteLabel = SOURCE_LABELS[match.source];
  const place = match.community ? `${siteLabel} · ${match.community}` : siteLabel;
  const snippet = highlightSegments(group.snippet, group.highlights).map((segment, i) =>
    segment.hit ? html`<mark key=${i}>${segment.text}</mark>` : segment.text,
  );
  return {
    id: match.permalink,
    title: matchHeadline(match).text,
    link: match.permalink,
    author: match.author,
    published: new Date(match.itemCreatedAt),
    updated: new Date(match.matchedAt),
    site: match.source,
    siteLabel,
    html: renderHtmlFragment(
      html`<${Fragment}>${snippet.length > 0 && html`<p>${snippet}</p>`}<p>${place}</p><//>`,
    ),
    text: group.snippet ? `${group.snippet}\n\n${place}` : place,
  };
}

function rssFeed(head: AlertFeedHead, entries: Entry[], updated: Date): RssFeed.Feed<Date> {
  return {
    title: head.title,
    link: head.homeUrl,
    description: head.description,
    lastBuildDate: updated,
    atom: { links: [{ href: head.selfUrls.rss, rel: 'self', type: 'application/rss+xml' }] },
    items: entries.map((entry) => ({
      title: entry.title,
      link: entry.link,
      description: entry.html,
      guid: { value: entry.id, isPermaLink: true },
      pubDate: entry.published,
      categories: [{ name: entry.siteLabel, domain: 'earshot:site' }],
      ...(entry.author ? { dc: { creators: [entry.author] } } : {}),
    })),
  };
}

function atomFeed(head: AlertFeedHead, entries: Entry[], updated: Date): AtomFeed.Feed<Date> {
  return {
    id: head.selfUrls.atom,
    title: { value: head.title, type: 'text' },
    subtitle: { value: head.description, type: 'text' },
    updated,
    links: [
      { href: head.selfUrls.atom, rel: 'self', type: 'application/atom+xml' },
      { href: head.homeUrl, rel: 'alternate', type: 'text/html' },
    ],
    entries: entries.map((entry) => ({
      id: entry.id,
      title: { value: entry.title, type: 'text' },
      updated: entry.updated,
      published: entry.published,
      links: [{ href: entry.link, rel: 'alternate', type: 'text/html' }],
      content: { value: entry.html, type: 'html' },
      categories: [{ term: entry.site, label: entry.siteLabel }],
      ...(entry.author ? { authors: [{ name: entry.author }] } : {}),
    })),
  };
}

function jsonFeed(head: AlertFeedHead, entries: Entry[]): JsonFeed.Feed<Date> {
  return {
    title: head.title,
    description: head.description,
    home_page_url: head.homeUrl,
    feed_url: head.selfUrls.json,
    items: entries.map((entry) => ({
      id: entry.id,
      url: entry.link,
      title: entry.title,
      content_html: entry.html,
      content_text: entry.text,
      date_published: entry.published,
      date_modified: entry.updated,
      tags: [entry.siteLabel],
      ...(entry.author ? { authors: [{ name: entry.author }] } : {}),
    })),
  };
}
