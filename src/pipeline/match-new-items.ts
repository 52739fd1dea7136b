import { asc, eq, gt, sql } from 'drizzle-orm';
import { toMatch } from '../core/matches/to-match.ts';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import { type ItemRow, itemColumns, items, matchCursors } from '../db/schema/items.ts';
import { matches } from '../db/schema/matches.ts';
import { monitors } from '../db/schema/monitors.ts';
import { searchDocumentLiteral } from '../db/search-text.ts';
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
      .select(itemColumns)
      .from(items)
      .where(gt(items.id, after))
      .orderBy(asc(items.id))
      .limit(limit + 1);
    const more = batch.length > limit;
    if (more) batch.pop();
    if (batch.length === 0) return { items: 0, matches: 0, more: false };

    const hits: Hit[] = [];
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

    for (let start = 0; start < hits.length; start += ROWS_PER_INSERT) {
      const chunk = hits.slice(start, start + ROWS_PER_INSERT);
      const byKey = new Map(
        chunk.map((hit) => [`${hit.monitorId} ${hit.item.source} ${hit.item.externalId}`, hit]),
      );
      for (const inserted of await insertMatches(tx, chunk)) {
        const hit = byKey.get(`${inserted.monitor_id} ${inserted.source} ${inserted.external_id}`);
        if (!hit) continue;
        announced.push({
          userId: inserted.user_id,
          match: toMatch({
            id: Number(inserted.id),
            userId: inserted.user_id,
            monitorId: hit.monitorId,
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
            matchedAt: new Date(Number(inserted.matched_ms)),
            readAt: null,
          }),
        });
      }
    }
    const stored = announced.length;

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

type Hit = {
  readonly monitorId: string;
  readonly item: ItemRow;
  readonly snippet: string;
  readonly highlights: readonly (readonly [number, number])[];
};

/**
 * Stores a chunk of hits in one statement: each joined with its monitor, read in this
 * transaction (a monitor deleted or paused since the index last heard of it makes no match, and
 * the monitor gives the owner), inserted from column arrays (`unnest`: the query builder's cost
 * grows with rows × columns, this one's does not) with its search document written here, and the
 * monitors' counters raised by what was inserted. Returns the rows inserted: a repeat after a
 * crash conflicts and returns nothing.
 */
async function insertMatches(
  tx: Pick<Database, 'execute'>,
  hits: readonly Hit[],
): Promise<
  {
    id: string;
    user_id: string;
    monitor_id: string;
    source: string;
    external_id: string;
    matched_ms: number;
  }[]
> {
  const column = <T>(read: (hit: Hit) => T) => sql.param(hits.map(read));
  const result = await tx.execute(sql`
    with inserted as (
      insert into ${matches} (user_id, monitor_id, source, external_id, kind, title,
        snippet, highlights, url, permalink, author, community, item_created_at, search)
      select user_id, monitor_id, source, external_id, kind, title, snippet,
        highlights::jsonb, url, permalink, author, community, item_created_at, search::tsvector
      from (
        select r.*, (select m.user_id from ${monitors} m where m.id = r.monitor_id and not m.paused) as user_id
        from unnest(
        ${column((hit) => hit.monitorId)}::uuid[],
        ${column((hit) => hit.item.source)}::text[],
        ${column((hit) => hit.item.externalId)}::text[],
        ${column((hit) => hit.item.kind)}::text[],
        ${column((hit) => hit.item.title)}::text[],
        ${column((hit) => hit.snippet)}::text[],
        ${column((hit) => JSON.stringify(hit.highlights))}::text[],
        ${column((hit) => hit.item.url)}::text[],
        ${column((hit) => hit.item.permalink)}::text[],
        ${column((hit) => hit.item.author)}::text[],
        ${column((hit) => hit.item.community)}::text[],
        ${column((hit) => hit.item.createdAt.toISOString())}::timestamptz[],
        ${column((hit) => searchDocumentLiteral(hit.item.title, hit.snippet, hit.item.author, hit.item.community))}::text[]
      ) as r(monitor_id, source, external_id, kind, title, snippet, highlights, url,
        permalink, author, community, item_created_at, search)
      ) as hit
      -- A lookup by key for each row: a join would read every monitor into a hash first.
      where user_id is not null
      on conflict (monitor_id, source, external_id) do nothing
      returning id, user_id, monitor_id, source, external_id, matched_at
    ),
    counted as (
      update ${monitors} set match_count = ${monitors.matchCount} + c.n, last_match_at = c.at
      from (select monitor_id, count(*)::int as n, max(matched_at) as at from inserted group by monitor_id) as c
      where ${monitors.id} = c.monitor_id
    )
    select id::text as id, user_id::text as user_id, monitor_id::text as monitor_id,
      source, external_id, (extract(epoch from matched_at) * 1000)::float8 as matched_ms
    from inserted`);
  return rowsOf(result);
}
