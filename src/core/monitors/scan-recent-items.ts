import { and, desc, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { type ItemRow, itemColumns, items } from '../../db/schema/items.ts';
import type { SourceName } from '../../shared/sources.ts';
import type { WithSignals } from '../../signals/item-signals.ts';
import type { PreviewGate } from './preview-gate.ts';

/** How much one scan may spend: items examined, and milliseconds (waiting for the gate included). */
export type ScanBudget = { items: number; ms: number };

export type ScanContext = {
  db: Database;
  gate: PreviewGate;
  budget: ScanBudget;
  /** Aborted when the client goes away: the scan stops at its next step. */
  signal?: AbortSignal | undefined;
};

export type RecentItemsScan = {
  /** Items examined: read in a window, or (for a rare query) candidates read by full-text search. */
  examined: number;
  /** `created_at` of the oldest item examined, in ms; null when none was. */
  oldestReadAt: number | null;
  /** Why the scan ended before the week did; null when it examined every item of it. */
  stoppedBy: 'items' | 'time' | null;
};

type WindowRow = { id: number; at: Date; inScope: boolean; hit: boolean };
type WindowRead = { window: WindowRow[]; hits: ItemRow[] };

/** Items read in one step of a window: one short index scan, then the gate lets other work in. */
const WINDOW = 250;
/** Candidates read in one step once full-text search is used. */
const PAGE = 250;
/**
 * Full-text search is used when the week would hold at most this many candidates: its cost
 * grows with all the candidates of the week at every page (PostgreSQL builds the whole bitmap
 * before it sorts), so it pays only for a rare query. A common one is read window by window.
 */
const SEARCH_MAX_CANDIDATES = 1500;

/**
 * Reads the items of `sources` created after `since`, newest first, one bounded step at a time
 * through the previews' gate, handing those that meet `where` (the query's full-text anchors;
 * every item when there is none) to `visit`, until the week is done or the budget is spent
 * (docs/decisions/0028-preview-budget.md). At least one step is taken, however long the wait.
 *
 * The first steps read windows of the newest items along the `created_at` index and test
 * `where` on each, so a step costs the same whatever the query: PostgreSQL's plan for a full-text
 * condition ordered by time reads every candidate of the week, and PGlite keeps no statistics
 * to know better. When the first window shows the query is rare, the rest of the week is read
 * through the full-text index instead, which is then cheap.
 */
export async function scanRecentItems(
  ctx: ScanContext,
  scope: { since: Date; sources: readonly SourceName[]; where?: SQL | undefined },
  visit: (item: WithSignals<ItemRow>) => void,
): Promise<RecentItemsScan> {
  const started = performance.now();
  // Items stored without their signals get them when read (decision 0043). The models (some
  // 90 MB, a second to load) load with the first scan, not with every process that imports this.
  const { withSignalsOnRead } = await import('../../signals/item-signals.ts');
  const since = gt(items.createdAt, scope.since);
  const inScope = inArray(items.source, [...scope.sources]);
  const hit = scope.where ? sql`(${inScope} and ${scope.where})` : inScope;
  let examined = 0;
  // What counts against the budget: items read in windows, then (for a rare query, which the
  // full-text index keeps to a few pages) the candidates read through it.
  let spent = 0;
  let last: { at: Date; id: number } | null = null;
  let search = false;
  let switched = false;
  for (;;) {
    const from: { at: Date; id: number } | null = last;
    const after: SQL | undefined = from
      ? sql`(${items.createdAt}, ${items.id}) < (${from.at}, ${from.id})`
      : undefined;
    const room = ctx.budget.items - spent;
    let read: number;
    let limit: number;
    let inScopeRead: number;
    if (search) {
      limit = Math.min(PAGE, room);
      const page: ItemRow[] = await ctx.gate.step(
        () =>
          ctx.db
            .select(itemColumns)
            .from(items)
            .where(and(since, inScope, scope.where, after))
            .orderBy(desc(items.createdAt), desc(items.id))
            .limit(limit),
        ctx.signal,
      );
      for (const item of page) visit(withSignalsOnRead(item));
      read = page.length;
      inScopeRead = read;
      const tail = page.at(-1);
      if (tail) last = { at: tail.createdAt, id: tail.id };
    } else {
      limit = Math.min(WINDOW, room);
      const { window, hits } = await readWindow(ctx, and(since, after), inScope, hit, limit);
      for (const item of hits) visit(withSignalsOnRead(item));
      read = window.length;
      inScopeRead = window.filter((row) => row.inScope).length;
      const tail = window.at(-1);
      if (tail) last = { at: tail.at, id: tail.id };
      // A rare query: what the first window holds, over the week, stays a few pages.
      if (scope.where && examined === 0 && tail && window.length === limit) {
        const newest = window[0]?.at.getTime() ?? tail.at.getTime();
        const spanMs = Math.max(1, newest - tail.at.getTime());
        const weekMs = newest - scope.since.getTime();
        search = hits.length * (weekMs / spanMs) <= SEARCH_MAX_CANDIDATES;
        switched = search;
      }
    }
    examined += inScopeRead;
    // Switching to the full-text index starts its budget of candidates afresh.
    spent = switched ? 0 : spent + read;
    switched = false;
    const oldestReadAt = last ? last.at.getTime() : null;
    if (read < limit) return { examined, oldestReadAt, stoppedBy: null };
    if (spent >= ctx.budget.items) return { examined, oldestReadAt, stoppedBy: 'items' };
    if (performance.now() - started >= ctx.budget.ms) {
      return { examined, oldestReadAt, stoppedBy: 'time' };
    }
  }
}

/**
 * The newest `limit` items meeting `where` (keys only, whether of the chosen sites), and those
 * of them that `hit` (whole). The sites are tested on each row, not put in the condition: as a
 * condition, PostgreSQL without statistics (PGlite) reads them by the source index and sorts
 * the whole week instead of walking `items_created_at_id_idx`.
 */
function readWindow(
  ctx: ScanContext,
  where: SQL | undefined,
  inScope: SQL,
  hit: SQL,
  limit: number,
): Promise<WindowRead> {
  return ctx.gate.step(async () => {
    const window = await ctx.db
      .select({
        id: items.id,
        at: items.createdAt,
        inScope: sql<boolean>`${inScope}`,
        hit: sql<boolean>`${hit}`,
      })
      .from(items)
      .where(where)
      .orderBy(desc(items.createdAt), desc(items.id))
      .limit(limit);
    const ids = window.filter((row) => row.hit).map((row) => row.id);
    if (ids.length === 0) return { window, hits: [] };
    const hits = await ctx.db
      .select(itemColumns)
      .from(items)
      .where(inArray(items.id, ids))
      .orderBy(desc(items.createdAt), desc(items.id));
    return { window, hits };
  }, ctx.signal);
}
