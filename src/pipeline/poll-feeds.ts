import { setTimeout as sleep } from 'node:timers/promises';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Config } from '../config/env.ts';
import { type Database, rowsOf } from '../db/client.ts';
import { type FeedRow, feeds } from '../db/schema/feeds.ts';
import { publicAddressRule } from '../platform/public-address.ts';
import { discoursePostsUrl } from '../sources/feeds/discover-feed.ts';
import { type FeedEntry, NotAFeedError } from '../sources/feeds/feed-entry.ts';
import { FeedFetchError, fetchFeed } from '../sources/feeds/fetch-feed.ts';
import { parseFeedDocument } from '../sources/feeds/parse-feed.ts';
import { mapLimit } from '../sources/http/map-limit.ts';
import type { NormalisedItem } from '../sources/normalised-item.ts';
import type { PipelineLogger } from './logger.ts';
import { SourceHealthTracker } from './source-health-tracker.ts';
import { storeItems } from './store-items.ts';

/** The poll interval adapts between these: quicker while a feed changes, slower while it does not. */
export const FEED_MIN_INTERVAL_SECONDS = 5 * 60;
export const FEED_MAX_INTERVAL_SECONDS = 6 * 60 * 60;
/** Feeds claimed at once, and fetched at once. */
const CLAIM_LIMIT = 20;
const FETCHES_AT_ONCE = 4;
/** How often the loop looks for due feeds when none was due. */
const IDLE_MS = 5000;

export type PollFeedsDeps = {
  readonly db: Database;
  readonly config: Pick<Config, 'FEED_TIMEOUT_MS' | 'FEED_MAX_BYTES' | 'FEEDS_ALLOW_PRIVATE'>;
  readonly logger: PipelineLogger;
  /** Told when items were stored, to wake the matchers. */
  readonly onStored?: () => void;
  readonly now?: () => Date;
};

export type PollFeedsResult = { readonly fetched: number; readonly stored: number };

/**
 * One round of the feeds users added (docs/product.md, "Feeds by URL"): claims the due feeds that
 * at least one user follows unpaused (`FOR UPDATE SKIP LOCKED` and a lease, so two workers never
 * fetch one feed at once), fetches each with a conditional GET, stores its new entries as items
 * of the `feeds` site under the feed (once per entry identity, so an edited entry is not stored
 * again), and writes the feed's health and its next fetch time.
 */
export async function pollDueFeeds(
  deps: PollFeedsDeps,
  signal?: AbortSignal,
): Promise<PollFeedsResult> {
  const now = deps.now?.() ?? new Date();
  const leaseUntil = new Date(now.getTime() + deps.config.FEED_TIMEOUT_MS * 2 + 60_000);
  const claimed = rowsOf<{ id: number }>(
    await deps.db.execute(sql`
      update ${feeds} set lease_until = ${leaseUntil.toISOString()}::timestamptz
      where id in (
        select f.id from ${feeds} f
        where f.next_fetch_at <= ${now.toISOString()}::timestamptz
          and (f.lease_until is null or f.lease_until < ${now.toISOString()}::timestamptz)
          and exists (select 1 from feed_subscriptions s where s.feed_id = f.id and s.paused_at is null)
        order by f.next_fetch_at
        limit ${CLAIM_LIMIT}
        for update skip locked)
      returning id`),
  );
  if (claimed.length === 0) return { fetched: 0, stored: 0 };
  const rows = await deps.db
    .select()
    .from(feeds)
    .where(
      inArray(
        feeds.id,
        claimed.map((row) => Number(row.id)),
      ),
    );
  const stored = await mapLimit(rows, FETCHES_AT_ONCE, (feed) => pollFeed(deps, feed, now, signal));
  return { fetched: rows.length, stored: stored.reduce((sum, count) => sum + count, 0) };
}

/**
 * Polls the due feeds until `signal` stops it, writing the `feeds` site's health row (ok, or
 * failing when a round itself fails; each feed's own failures are its own health).
 */
export async function pollFeedsLoop(
  deps: PollFeedsDeps & { readonly leader: string },
  signal: AbortSignal,
): Promise<void> {
  const tracker = new SourceHealthTracker('feeds', FEED_MIN_INTERVAL_SECONDS * 1000);
  while (!signal.aborted) {
    let result: PollFeedsResult = { fetched: 0, stored: 0 };
    try {
      result = await pollDueFeeds(deps, signal);
      tracker.succeeded({ stored: result.stored, skipped: {}, newestCreatedAt: null, more: false });
    } catch (error) {
      if (signal.aborted) return;
      tracker.failed(error);
      deps.logger.warn({ err: error }, 'polling the feeds failed');
    }
    await tracker
      .write(deps.db, deps.leader)
      .catch((error: unknown) => deps.logger.warn({ err: error }, 'cannot write the feeds health'));
    if (result.fetched < CLAIM_LIMIT) {
      await sleep(IDLE_MS, undefined, { signal }).catch(() => {});
    }
  }
}

/** Fetches one claimed feed and records how it went; returns the items it stored. */
async function pollFeed(
  deps: PollFeedsDeps,
  feed: FeedRow,
  now: Date,
  signal: AbortSignal | undefined,
): Promise<number> {
  const address = feed.kind === 'discourse' ? discoursePostsUrl(feed.url) : feed.url;
  try {
    const answer = await fetchFeed(address, {
      timeoutMs: deps.config.FEED_TIMEOUT_MS,
      maxBytes: deps.config.FEED_MAX_BYTES,
      addressRule: publicAddressRule(deps.config.FEEDS_ALLOW_PRIVATE),
      etag: feed.etag,
      lastModified: feed.lastModified,
      ...(signal ? { signal } : {}),
    });
    if (answer.status === 'not-modified') {
      // 304: nothing changed, nothing to parse.
      await recordSuccess(deps.db, feed, now, { stored: 0 });
      return 0;
    }
    const document = parseFeedDocument(answer.text, answer.url);
    const items = document.entries.map((entry) => feedItem(feed, entry, now));
    const { stored } = await storeItems(deps.db, { source: 'feeds', items });
    await recordSuccess(deps.db, feed, now, {
      stored,
      etag: answer.etag,
      lastModified: answer.lastModified,
    });
    if (stored > 0) deps.onStored?.();
    return stored;
  } catch (error) {
    if (signal?.aborted) throw error;
    const message =
      error instanceof FeedFetchError || error instanceof NotAFeedError
        ? error.message
        : 'the feed cannot be read';
    if (!(error instanceof FeedFetchError || error instanceof NotAFeedError)) {
      deps.logger.warn({ err: error, feedId: feed.id }, 'a feed failed');
    }
    const retryAfterMs = error instanceof FeedFetchError ? (error.retryAfterMs ?? 0) : 0;
    await recordFailure(deps.db, feed, now, message, retryAfterMs);
    return 0;
  }
}

/** An entry as an item of the `feeds` site: its identity kept apart from other feeds' by the feed's id. */
export function feedItem(
  feed: Pick<FeedRow, 'id' | 'url' | 'title'>,
  entry: FeedEntry,
  now: Date,
): NormalisedItem {
  return {
    source: 'feeds',
    externalId: `${feed.id}/${entry.externalId}`,
    kind: entry.kind,
    title: entry.title,
    body: entry.body,
    // The entry's link is what a feed entry is about, as a link post's is.
    url: entry.permalink,
    permalink: entry.permalink ?? feed.url,
    author: entry.author,
    community: feed.title,
    parentExternalId: entry.parentExternalId ? `${feed.id}/${entry.parentExternalId}` : null,
    // A Discourse reply carries its topic's title: the thread's.
    threadTitle: entry.kind === 'comment' ? entry.title : null,
    // Undated: dated when first seen; the stored item keeps that date (stored once).
    createdAt: entry.createdAt ?? now.toISOString(),
    feedId: feed.id,
  };
}

/** Quicker after a change, slower after none, within 5 minutes and 6 hours. */
export function nextIntervalSeconds(current: number, changed: boolean): number {
  const next = changed ? current / 2 : current * 1.5;
  return Math.round(Math.min(FEED_MAX_INTERVAL_SECONDS, Math.max(FEED_MIN_INTERVAL_SECONDS, next)));
}

async function recordSuccess(
  db: Database,
  feed: FeedRow,
  now: Date,
  outcome: { stored: number; etag?: string | null; lastModified?: string | null },
): Promise<void> {
  const interval = nextIntervalSeconds(feed.intervalSeconds, outcome.stored > 0);
  await db
    .update(feeds)
    .set({
      ...(outcome.etag === undefined ? {} : { etag: outcome.etag }),
      ...(outcome.lastModified === undefined ? {} : { lastModified: outcome.lastModified }),
      intervalSeconds: interval,
      nextFetchAt: new Date(now.getTime() + interval * 1000),
      leaseUntil: null,
      lastFetchAt: now,
      lastSuccessAt: now,
      ...(outcome.stored > 0 ? { lastChangeAt: now } : {}),
      lastError: null,
      itemsSeen: sql`${feeds.itemsSeen} + ${outcome.stored}`,
    })
    .where(eq(feeds.id, feed.id));
}

async function recordFailure(
  db: Database,
  feed: FeedRow,
  now: Date,
  message: string,
  retryAfterMs: number,
): Promise<void> {
  const interval = Math.min(FEED_MAX_INTERVAL_SECONDS, feed.intervalSeconds * 2);
  const waitMs = Math.max(
    interval * 1000,
    Math.min(retryAfterMs, FEED_MAX_INTERVAL_SECONDS * 4000),
  );
  await db
    .update(feeds)
    .set({
      intervalSeconds: interval,
      nextFetchAt: new Date(now.getTime() + waitMs),
      leaseUntil: null,
      lastFetchAt: now,
      lastError: message,
      lastErrorAt: now,
    })
    .where(eq(feeds.id, feed.id));
}
