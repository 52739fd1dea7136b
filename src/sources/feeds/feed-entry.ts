import { createHash } from 'node:crypto';

/** What a URL a user added turned out to be. */
export type FeedKind = 'rss' | 'atom' | 'json' | 'discourse';

/**
 * One entry of a feed or one Discourse post, normalised (docs/product.md, "Feeds by URL"). The
 * pipeline stores it as an item of the `feeds` site under its feed; `createdAt` is null when the
 * feed gives no usable date, and the pipeline dates it when it is first seen.
 */
export type FeedEntry = {
  /** The entry's GUID/id, else its link, else `h:` and a hash of its title and date. */
  readonly externalId: string;
  readonly kind: 'post' | 'comment';
  /** A post's title; for a Discourse reply, its topic's title (the thread's). */
  readonly title: string | null;
  /** Plain text, HTML reduced; '' when there is none. */
  readonly body: string;
  /** The entry's link, resolved against the feed's address: http(s) only. */
  readonly permalink: string | null;
  readonly author: string | null;
  /** The entry a comment answers (a Discourse reply's topic). */
  readonly parentExternalId: string | null;
  /** ISO 8601, UTC; null when undated. */
  readonly createdAt: string | null;
};

/** A parsed document: its name and its entries, newest first as the document lists them. */
export type FeedDocument = {
  readonly kind: FeedKind;
  /** The feed's own title, as text; null when it has none. */
  readonly title: string | null;
  readonly entries: readonly FeedEntry[];
};

/** The document is not one Earshot reads; `message` is shown to the user as it is. */
export class NotAFeedError extends Error {
  override name = 'NotAFeedError';
}

/**
 * An entry's identity: its id when it has one, else its link, else a hash of title and date, so
 * that an entry edited in place (new text, same id or link) is the same entry and does not alert
 * twice.
 */
export function entryIdentity(parts: {
  readonly id: string | null | undefined;
  readonly link: string | null | undefined;
  readonly title: string | null;
  readonly date: string | null | undefined;
}): string {
  const id = parts.id?.trim();
  if (id) return id;
  const link = parts.link?.trim();
  if (link) return link;
  const hash = createHash('sha256')
    .update(`${parts.title ?? ''}\u0000${parts.date ?? ''}`)
    .digest('base64url');
  return `h:${hash.slice(0, 22)}`;
}

/** `link` resolved against `base`, when the result is an http(s) address; else null. */
export function resolveLink(link: string | null | undefined, base: string): string | null {
  const trimmed = link?.trim();
  if (!trimmed) return null;
  try {
    const url = new URL(trimmed, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A date as a feed writes it (RFC 822, RFC 3339, ISO 8601) to ISO 8601 UTC; null when unreadable. */
export function isoDate(value: string | null | undefined): string | null {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  const time = Date.parse(trimmed);
  if (Number.isNaN(time)) return null;
  const date = new Date(time);
  // A year past 9999 does not fit ISO 8601's four digits, nor PostgreSQL's range.
  if (date.getUTCFullYear() < 1970 || date.getUTCFullYear() > 9999) return null;
  return date.toISOString();
}
