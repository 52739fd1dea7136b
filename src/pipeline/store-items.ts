import { sql } from 'drizzle-orm';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';
import type { Database } from '../db/client.ts';
import { rowsOf } from '../db/client.ts';
import { items, sourceCursors } from '../db/schema/items.ts';
import { searchDocumentLiteral } from '../db/search-text.ts';
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

const ROWS_PER_INSERT = 1000;

/**
 * The first step of the pipeline: stores a connector's batch once per `(source, externalId)`
 * and moves its cursor in the same transaction, so a crash or a restart neither skips nor
 * repeats items. Matching reads the stored items afterwards (`matchNewItems`).
 */
export async function storeItems(db: Database, input: StoreItemsInput): Promise<StoreItemsResult> {
  // The items' signals are not computed here: they are computed when first read, by the matcher
  // for an item some monitor matches or filters on them, by the preview (decision 0043).
  return db.transaction(async (tx) => {
    // Item ids must become visible in id order: a matcher shard moves its cursor past every id
    // it has read, so an id taken by a transaction that commits after a higher one would never
    // be matched. Stores therefore take turns (sources storing at once, a leader handing over);
    // the lock is released at commit.
    await tx.execute(sql`select pg_advisory_xact_lock(${ADVISORY_LOCKS.itemOrder})`);
    let stored = 0;
    const batch = await withThreads(tx, input.source, input.items);
    for (let start = 0; start < batch.length; start += ROWS_PER_INSERT) {
      const end = start + ROWS_PER_INSERT;
      stored += await insertItems(tx, batch.slice(start, end));
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

/**
 * A comment's thread, when its site did not name it, from its parent: the title (a post's
 * title, or the thread title of a comment) and the thread's id (a post's own external id, or
 * the thread id of a comment), from a parent stored before or earlier in the batch, as a site
 * lists a parent before its replies (Hacker News ids grow, Reddit and DEV trees are read parent
 * first). A post is its own thread.
 */
async function withThreads(
  tx: Pick<Database, 'execute'>,
  source: SourceName,
  batch: readonly NormalisedItem[],
): Promise<NormalisedItem[]> {
  const unknown = (item: NormalisedItem) =>
    item.parentExternalId !== null && (item.threadTitle === null || !item.threadId);
  // The parent, and the thread's post itself when the site named the thread but not its title
  // (a Reddit reply whose parent comment was never read).
  const parents = [
    ...new Set(
      batch.flatMap((item) =>
        unknown(item)
          ? [item.parentExternalId as string, ...(item.threadId ? [item.threadId] : [])]
          : [],
      ),
    ),
  ];
  type Thread = { title: string | null; id: string | null };
  const threadOf = new Map<string, Thread>();
  if (parents.length > 0) {
    const stored = rowsOf<{ external_id: string; title: string | null; thread_id: string | null }>(
      await tx.execute(sql`
        select external_id,
          case when kind = 'post' then title else thread_title end as title,
          case when kind = 'post' then external_id else thread_id end as thread_id
        from ${items}
        where source = ${source} and external_id = any(${sql.param(parents)}::text[])`),
    );
    for (const row of stored)
      threadOf.set(row.external_id, { title: row.title, id: row.thread_id });
  }
  return batch.map((item) => {
    if (item.kind === 'post') {
      threadOf.set(item.externalId, { title: item.title, id: item.externalId });
      return { ...item, threadId: item.externalId };
    }
    const parent = item.parentExternalId === null ? undefined : threadOf.get(item.parentExternalId);
    const post = item.threadId ? threadOf.get(item.threadId) : undefined;
    const thread: Thread = {
      title: item.threadTitle ?? parent?.title ?? post?.title ?? null,
      id: item.threadId || (parent?.id ?? null),
    };
    threadOf.set(item.externalId, thread);
    return { ...item, threadTitle: thread.title, threadId: thread.id };
  });
}

/**
 * Inserts items as one statement over column arrays (`unnest`), each search document written
 * here, their signals not computed (null `intents`); returns how many were new.
 */
async function insertItems(
  tx: Pick<Database, 'execute'>,
  rows: readonly NormalisedItem[],
): Promise<number> {
  const column = <T>(read: (row: NormalisedItem) => T) => sql.param(rows.map(read));
  const result = await tx.execute(sql`
    insert into ${items} (source, external_id, kind, title, body, url, permalink, author,
      community, parent_external_id, thread_title, thread_id, created_at, feed_id, search)
    select source, external_id, kind, title, body, url, permalink, author, community,
      parent_external_id, thread_title, thread_id, created_at, feed_id, search_text::tsvector
    from unnest(
      ${column((row) => row.source)}::text[],
      ${column((row) => row.externalId)}::text[],
      ${column((row) => row.kind)}::text[],
      ${column((row) => row.title)}::text[],
      ${column((row) => row.body)}::text[],
      ${column((row) => row.url)}::text[],
      ${column((row) => row.permalink)}::text[],
      ${column((row) => row.author)}::text[],
      ${column((row) => row.community)}::text[],
      ${column((row) => row.parentExternalId)}::text[],
      ${column((row) => row.threadTitle)}::text[],
      ${column((row) => row.threadId ?? null)}::text[],
      ${column((row) => new Date(row.createdAt).toISOString())}::timestamptz[],
      ${column((row) => row.feedId ?? null)}::bigint[],
      ${column((row) => searchDocumentLiteral(row.title, row.body, row.url))}::text[]
    ) as r(source, external_id, kind, title, body, url, permalink, author, community,
      parent_external_id, thread_title, thread_id, created_at, feed_id, search_text)
    on conflict (source, external_id) do nothing
    returning 1`);
  return rowsOf(result).length;
}
