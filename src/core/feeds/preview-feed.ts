import type { FeedPreview } from '../../shared/feeds.ts';
import { discoverFeed } from '../../sources/feeds/discover-feed.ts';
import { feedUrlProblem } from '../../sources/feeds/fetch-feed.ts';
import { ValidationError } from '../errors.ts';
import { type FeedSettings, feedFetchOptions, feedUrlRefused } from './feed-context.ts';

const PREVIEW_ITEMS = 5;
const PREVIEW_TEXT = 300;

/**
 * What a URL is and what it says now (POST /api/feeds/preview): its name, its kind and its last
 * five items, newest first, read as the poller would read them. Nothing is stored.
 */
export async function previewFeed(
  ctx: { readonly config: FeedSettings },
  input: { readonly url: string },
): Promise<FeedPreview> {
  const url = checkedFeedUrl(input.url);
  const found = await discoverFeed(url, feedFetchOptions(ctx.config)).catch(feedUrlRefused);
  const newestFirst = [...found.entries].sort((a, b) =>
    (b.createdAt ?? '').localeCompare(a.createdAt ?? ''),
  );
  return {
    url: found.url,
    name: found.name,
    kind: found.kind,
    items: newestFirst.slice(0, PREVIEW_ITEMS).map((entry) => ({
      kind: entry.kind,
      title: entry.title,
      text:
        entry.body.length > PREVIEW_TEXT ? `${entry.body.slice(0, PREVIEW_TEXT - 1)}…` : entry.body,
      permalink: entry.permalink,
      author: entry.author,
      createdAt: entry.createdAt,
    })),
  };
}

/** The URL as typed, when it may be fetched at all: http(s), no credentials. */
export function checkedFeedUrl(value: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:/iu.test(value) ? value : `https://${value}`;
  const problem = feedUrlProblem(withScheme);
  if (problem) {
    throw new ValidationError(`The address cannot be added: ${problem}.`, [
      { path: 'url', message: problem },
    ]);
  }
  return new URL(withScheme).href;
}
