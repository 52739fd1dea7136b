import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { items, sourceCursors } from '../db/schema/items.ts';
import type { SourceName } from '../shared/sources.ts';
import type { NormalisedItem } from '../sources/normalised-item.ts';

export type StoreItemsInput = {
  readonly source: SourceName;
  readonly items: readonly NormalisedItem[];
  /** The connector's cursor after these items, committed with them; omitted: left as it is. */
  readonly cursor?: unknown;
};

export type StoreItemsResult = {
  /** Items new to the database. */
  readonly stored: number;
  /** Items already stored (a site that shows an item twice, or a retry after a crash). */
  readonly duplicates: number;
};

// Any constant; the same in every process that stores items.
const ITEM_ORDER_LOCK_ID = 7_221_043;

// 13 parameters a row; PostgreSQL takes at most 65,535 parameters a statement.
const ROWS_PER_INSERT = 1000;

/**
 * The first step of the pipeline: stores a connector's batch once per `(source, externalId)`
 * and moves its cursor in the same transaction, so a crash or a restart neither skips nor
 * repeats items. Matching reads the stored items afterwards (`matchNewItems`).
 */
export async function storeItems(db: Database, input: StoreItemsInput): Promise<StoreItemsResult> {
  return db.transaction(async (tx) => {
    // Item ids must become visible in id order: a matcher shard moves its cursor past every id
    // it has read, so an id taken by a transaction that commits after a higher one would never
    // be matched. Stores therefore take turns (sources storing at once, a leader handing over);
    // the lock is released at commit.
    await tx.execute(sql`select pg_advisory_xact_lock(${ITEM_ORDER_LOCK_ID})`);
    let stored = 0;
    for (let start = 0; start < input.items.length; start += ROWS_PER_INSERT) {
      const rows = input.items.slice(start, start + ROWS_PER_INSERT).map((item) => ({
        source: item.source,
        externalId: item.externalId,
        kind: item.kind,
        title: item.title,
        body: item.body,
        url: item.url,
        permalink: item.permalink,
        author: item.author,
        community: item.community,
        parentExternalId: item.parentExternalId,
        createdAt: new Date(item.createdAt),
      }));
      const inserted = await tx
        .insert(items)
        .values(rows)
        .onConflictDoNothing({ target: [items.source, items.externalId] })
        .returning({ id: items.id });
      stored += inserted.length;
    }
    if (input.cursor !== undefined) {
      await tx
        .insert(sourceCursors)
        .values({ source: input.source, cursor: input.cursor })
        .onConflictDoUpdate({
          target: sourceCursors.source,
          set: { cursor: input.cursor, updatedAt: sql`now()` },
        });
    }
    return { stored, duplicates: input.items.length - stored };
  });
}
