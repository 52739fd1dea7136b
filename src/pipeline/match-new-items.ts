import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import { matchColumns, toMatch } from '../core/matches/to-match.ts';
import type { Database } from '../db/client.ts';
import { items, matchCursors } from '../db/schema/items.ts';
import { matches } from '../db/schema/matches.ts';
import { monitors } from '../db/schema/monitors.ts';
import type { MonitorIndex } from '../matcher/monitor-index.ts';
import { createItemSnippet } from '../matcher/snippet.ts';
import type { MatchEvents, NewMatch } from './match-events.ts';

export type MatchNewItemsDeps = {
  readonly db: Database;
  /** The monitors of this shard (only active ones: paused monitors are not in it). */
  readonly index: MonitorIndex;
  readonly events: MatchEvents;
  /** `{ index: k, count: n }`: the shard this index holds; its cursor is kept under "k/n". */
  readonly shard?: { readonly index: number; readonly count: number };
};

export type MatchNewItemsResult = {
  /** Items read (and matched) in this call. */
  readonly items: number;
  /** Matches stored. */
  readonly matches: number;
  /** True when more items were waiting than one call reads. */
  readonly more: boolean;
};

const ROWS_PER_INSERT = 1000;

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
  const announced: NewMatch[] = [];
  const result = await deps.db.transaction(async (tx) => {
    // The row lock makes two processes running one shard take turns instead of both matching.
    const [cursor] = await tx
      .select({ lastItemId: matchCursors.lastItemId })
      .from(matchCursors)
      .where(eq(matchCursors.shard, shard))
      .for('update');
    const after = cursor?.lastItemId ?? 0;
    const batch = await tx
      .select()
      .from(items)
      .where(gt(items.id, after))
      .orderBy(asc(items.id))
      .limit(limit + 1);
    const more = batch.length > limit;
    if (more) batch.pop();
    if (batch.length === 0) return { items: 0, matches: 0, more: false };

    const hits: {
      monitorId: string;
      item: (typeof batch)[number];
      highlights: readonly [number, number][];
      snippet: string;
    }[] = [];
    for (const item of batch) {
      for (const hit of deps.index.match(item)) {
        const snippet = createItemSnippet(item, hit.highlights);
        hits.push({
          monitorId: hit.monitorId,
          item,
          snippet: snippet.text,
          highlights: snippet.highlights.map(
            (range) => [range.start, range.end] as [number, number],
          ),
        });
      }
    }

    let stored = 0;
    if (hits.length > 0) {
      // The owner of each monitor hit, read in this transaction: a monitor deleted or paused
      // since the index last heard of it makes no match.
      const monitorIds = [...new Set(hits.map((hit) => hit.monitorId))];
      const owners = new Map<string, string>();
      for (const row of await tx
        .select({ id: monitors.id, userId: monitors.userId })
        .from(monitors)
        .where(and(inArray(monitors.id, monitorIds), eq(monitors.paused, false)))) {
        owners.set(row.id, row.userId);
      }
      const rows = hits.flatMap((hit) => {
        const userId = owners.get(hit.monitorId);
        if (userId === undefined) return [];
        return [
          {
            userId,
            monitorId: hit.monitorId,
            itemId: hit.item.id,
            source: hit.item.source,
            externalId: hit.item.externalId,
            kind: hit.item.kind,
            title: hit.item.title,
            snippet: hit.snippet,
            highlights: hit.highlights as [number, number][],
            url: hit.item.url,
            permalink: hit.item.permalink,
            author: hit.item.author,
            community: hit.item.community,
            itemCreatedAt: hit.item.createdAt,
          },
        ];
      });
      const perMonitor = new Map<string, number>();
      for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
        const inserted = await tx
          .insert(matches)
          .values(rows.slice(start, start + ROWS_PER_INSERT))
          .onConflictDoNothing({ target: [matches.monitorId, matches.source, matches.externalId] })
          .returning(matchColumns);
        for (const row of inserted) {
          perMonitor.set(row.monitorId, (perMonitor.get(row.monitorId) ?? 0) + 1);
          announced.push({ userId: row.userId, match: toMatch(row) });
        }
      }
      stored = announced.length;
      if (perMonitor.size > 0) {
        const ids = [...perMonitor.keys()];
        const counts = ids.map((id) => perMonitor.get(id) ?? 0);
        await tx.execute(sql`
          update ${monitors} set match_count = ${monitors.matchCount} + v.n, last_match_at = now()
          from (select unnest(${sql.param(ids)}::uuid[]) as id, unnest(${sql.param(counts)}::int[]) as n) as v
          where ${monitors.id} = v.id`);
      }
    }

    const last = batch[batch.length - 1]?.id ?? after;
    await tx
      .insert(matchCursors)
      .values({ shard, lastItemId: last })
      .onConflictDoUpdate({
        target: matchCursors.shard,
        set: { lastItemId: last, updatedAt: sql`now()` },
      });
    return { items: batch.length, matches: stored, more };
  });
  deps.events.emit(announced);
  return result;
}
