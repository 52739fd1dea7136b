import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { feedSubscriptions } from '../db/schema/feeds.ts';
import { type ItemRow, itemColumns, items, matchCursors } from '../db/schema/items.ts';
import { monitors, threadFollows } from '../db/schema/monitors.ts';
import type { MonitorIndex } from '../matcher/monitor-index.ts';
import type { MatchEvents, NewMatch } from '../matches/match-events.ts';
import { matchOfItem } from '../matches/match-of-item.ts';
import { type MatchToStore, storeMatches } from '../matches/store-matches.ts';
import { type WithSignals, withSignalsOnRead } from '../signals/item-signals.ts';

export type MatchNewItemsDeps = {
  readonly db: Database;
  /** The monitors of this shard (only active ones: paused monitors are not in it). */
  readonly index: MonitorIndex;
  readonly events: MatchEvents;
  /** `{ index: k, count: n }`: the shard this index holds; its cursor is kept under "k/n". */
  readonly shard?: { readonly index: number; readonly count: number };
  /** Most matches a monitor stores in a clock hour (MONITOR_MATCHES_PER_HOUR); none when unset. */
  readonly matchesPerHour?: number;
};

export type MatchNewItemsResult = {
  /** Items read (and matched) in this call. */
  readonly items: number;
  /** Matches stored. */
  readonly matches: number;
  /** True when more items were waiting than one call reads. */
  readonly more: boolean;
};

/**
 * The second step of the pipeline: reads the stored items after this shard's cursor (in id
 * order), matches each against the index, stores each hit once per `(monitor, item)` with its
 * snippet and highlights, bumps the monitors' counters and moves the cursor, all in one
 * transaction; then announces the new matches. A crash before the commit repeats the batch,
 * and the unique key makes the repeat harmless.
 */
export async function matchNewItems(
  deps: MatchNewItemsDeps,
  options: { readonly limit?: number } = {},
): Promise<MatchNewItemsResult> {
  const limit = options.limit ?? 500;
  const shard = deps.shard ? `${deps.shard.index}/${deps.shard.count}` : '0/1';
  let announced: NewMatch[] = [];
  const result = await deps.db.transaction(async (tx) => {
    // The row lock makes two processes running one shard take turns instead of both matching.
    const [cursor] = await tx
      .select({ lastItemId: matchCursors.lastItemId })
      .from(matchCursors)
      .where(eq(matchCursors.shard, shard))
      .for('update');
    const after = cursor?.lastItemId ?? 0;
    const rows = await tx
      .select(itemColumns)
      .from(items)
      .where(gt(items.id, after))
      .orderBy(asc(items.id))
      .limit(limit + 1);
    const more = rows.length > limit;
    if (more) rows.pop();
    // An item's signals are computed only if read (decision 0043): by the matcher when a monitor
    // of the index filters on one, and by `matchOfItem` for an item that makes a match.
    const batch = rows.map(withSignalsOnRead);
    if (batch.length === 0) return { items: 0, matches: 0, more: false };

    const hits: (MatchToStore & { readonly feedId: number | null })[] = [];
    for (const item of batch) {
      for (const hit of deps.index.match(item)) {
        hits.push({
          monitorId: hit.monitorId,
          match: matchOfItem(item, hit.highlights),
          feedId: item.feedId,
        });
      }
    }
    hits.push(...(await followedHits(tx, batch, hits)));
    announced = await storeMatches(tx, await keepSubscribersHits(tx, hits), {
      matchesPerHour: deps.matchesPerHour,
    });

    const last = batch[batch.length - 1]?.id ?? after;
    await tx
      .insert(matchCursors)
      .values({ shard, lastItemId: last })
      .onConflictDoUpdate({
        target: matchCursors.shard,
        set: { lastItemId: last, updatedAt: sql`now()` },
      });
    return { items: batch.length, matches: announced.length, more };
  });
  deps.events.emit(announced);
  return result;
}

/**
 * Items of followed threads (decision 0038): a comment of a thread a monitor follows, written
 * before the follow ends, is a match of that monitor even without its words (no highlights),
 * unless the monitor's query already hit it.
 */
async function followedHits(
  tx: Pick<Database, 'select'>,
  batch: readonly WithSignals<ItemRow>[],
  hits: readonly { monitorId: string; match: { externalId: string; source: string } }[],
): Promise<(MatchToStore & { readonly feedId: number | null })[]> {
  const threaded = batch.filter((item) => item.kind === 'comment' && item.threadId !== null);
  if (threaded.length === 0) return [];
  const follows = await tx
    .select()
    .from(threadFollows)
    .where(
      inArray(threadFollows.threadId, [
        ...new Set(threaded.map((item) => item.threadId as string)),
      ]),
    );
  if (follows.length === 0) return [];
  const already = new Set(
    hits.map((hit) => `${hit.monitorId} ${hit.match.source} ${hit.match.externalId}`),
  );
  return threaded.flatMap((item) =>
    follows
      .filter(
        (follow) =>
          follow.source === item.source &&
          follow.threadId === item.threadId &&
          item.createdAt <= follow.until &&
          !already.has(`${follow.monitorId} ${item.source} ${item.externalId}`),
      )
      .map((follow) => ({
        monitorId: follow.monitorId,
        match: matchOfItem(item, []),
        feedId: item.feedId,
      })),
  );
}

/**
 * The hits of items from feeds users added, kept only for monitors of users with an unpaused
 * subscription to that feed: a private feed's items never reach anyone else (docs/product.md,
 * "Feeds by URL"). Other hits pass as they are, without a query.
 */
async function keepSubscribersHits(
  tx: Pick<Database, 'select'>,
  hits: readonly (MatchToStore & { readonly feedId: number | null })[],
): Promise<MatchToStore[]> {
  const feedHits = hits.filter((hit) => hit.feedId !== null);
  if (feedHits.length === 0) return hits.map(({ feedId: _, ...hit }) => hit);
  const feedIds = [...new Set(feedHits.map((hit) => hit.feedId as number))];
  const monitorIds = [...new Set(feedHits.map((hit) => hit.monitorId))];
  const allowed = await tx
    .select({ monitorId: monitors.id, feedId: feedSubscriptions.feedId })
    .from(monitors)
    .innerJoin(feedSubscriptions, eq(feedSubscriptions.userId, monitors.userId))
    .where(
      and(
        inArray(monitors.id, monitorIds),
        inArray(feedSubscriptions.feedId, feedIds),
        isNull(feedSubscriptions.pausedAt),
      ),
    );
  const pairs = new Set(allowed.map((row) => `${row.monitorId} ${row.feedId}`));
  return hits
    .filter((hit) => hit.feedId === null || pairs.has(`${hit.monitorId} ${hit.feedId}`))
    .map(({ feedId: _, ...hit }) => hit);
}
