import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { publicAddressRule } from '../../platform/public-address.ts';
import { NotAFeedError } from '../../sources/feeds/feed-entry.ts';
import { FeedFetchError } from '../../sources/feeds/fetch-feed.ts';
import { NotFoundError, ValidationError } from '../errors.ts';

export type FeedSettings = Pick<
  Config,
  'FEEDS_ALLOW_PRIVATE' | 'MAX_FEEDS_PER_USER' | 'FEED_TIMEOUT_MS' | 'FEED_MAX_BYTES'
>;

export type FeedCtx = { readonly db: Database; readonly config: FeedSettings };

/**
 * How a feed added by URL is fetched, from the configuration: public addresses only (decision
 * 0016) unless FEEDS_ALLOW_PRIVATE.
 */
export function feedFetchOptions(config: FeedSettings, signal?: AbortSignal) {
  return {
    timeoutMs: config.FEED_TIMEOUT_MS,
    maxBytes: config.FEED_MAX_BYTES,
    addressRule: publicAddressRule(config.FEEDS_ALLOW_PRIVATE),
    ...(signal ? { signal } : {}),
  };
}

/**
 * A URL that could not be read as a feed, for the form: the fetch's or the parser's words ("404
 * Not Found", "not a feed", "this address is not allowed") on the `url` field.
 */
export function feedUrlRefused(error: unknown): never {
  if (error instanceof FeedFetchError || error instanceof NotAFeedError) {
    const message = `The address cannot be added: ${error.message}.`;
    throw new ValidationError(message, [{ path: 'url', message: error.message }]);
  }
  throw error;
}

export const feedNotFound = () => new NotFoundError('No such feed.');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/** Throws not-found for an id that cannot be a subscription's, before any query. */
export function checkFeedId(id: string): void {
  if (!UUID.test(id)) throw feedNotFound();
}
