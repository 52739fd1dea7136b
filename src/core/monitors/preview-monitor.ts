import { and, gt, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import { type ItemRow, items } from '../../db/schema/items.ts';
import { isFoldable, searchLexemes, searchQueryTerm } from '../../db/search-text.ts';
import { type Anchor, chooseAnchors } from '../../matcher/anchors.ts';
import { createMonitorIndex, type Highlight } from '../../matcher/monitor-index.ts';
import type { QueryNode } from '../../matcher/query-ast.ts';
import { matchOfItem } from '../../matches/match-of-item.ts';
import { unratedRelevance } from '../../matches/monitor-relevance.ts';
import { toMatch } from '../../matches/to-match.ts';
import type { Match } from '../../shared/match.ts';
import type { MonitorPreview, PreviewMonitorBody } from '../../shared/monitor.ts';
import { SOURCE_NAMES } from '../../shared/sources.ts';
import type { WithSignals } from '../../signals/item-signals.ts';
import { checkMonitorQuery } from './check-monitor-query.ts';
import { type ScanContext, scanRecentItems } from './scan-recent-items.ts';

export const PREVIEW_DAYS = 7;
const PREVIEW_ITEMS = 20;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export type PreviewContext = ScanContext & { now?: () => Date };

/**
 * What a query would have found in the stored items of the last 7 days, and how many alerts a
 * day that makes (docs/decisions/0013-…). Full-text search over the items' folded words finds
 * the candidates that hold one of the query's anchors (a GIN index, so the cost follows the
 * candidates, not the items stored); the matcher then verifies each, exactly as the pipeline
 * would. A query whose anchors full-text search cannot see (a word in a script it folds away)
 * is verified on the newest items of the week instead.
 *
 * The candidates are read newest first, a page a step through the previews' gate, until the
 * week is done or the budget is spent (docs/decisions/0028-preview-budget.md). Then the count
 * is the matches of the hours read, scaled to the hours the sites' items cover, and the answer
 * says so (`estimated`, `basis`).
 */
export async function previewMonitor(
  ctx: PreviewContext,
  input: PreviewMonitorBody,
): Promise<MonitorPreview> {
  const ast = checkMonitorQuery(input.query);
  const sources = input.sources ?? [...SOURCE_NAMES];
  const now = ctx.now?.() ?? new Date();
  const since = new Date(now.getTime() - PREVIEW_DAYS * DAY_MS);
  const prefilter = anchorCondition(ast);
  const index = createMonitorIndex();
  index.add('preview', ast, { sources });

  let found = 0;
  const shown: Match[] = [];
  const scan = await scanRecentItems(
    ctx,
    {
      since,
      sources,
      // Items of feeds users added are theirs alone: the preview, which knows no user, leaves
      // them out.
      where: prefilter ? and(isNull(items.feedId), prefilter) : isNull(items.feedId),
    },
    (item) => {
      const [hit] = index.match(item);
      if (!hit) return;
      found++;
      if (shown.length < PREVIEW_ITEMS) shown.push(previewMatch(item, hit.highlights, now));
    },
  );
  const [oldest] = await ctx.gate.step(
    () =>
      ctx.db
        .select({ at: sql<Date | string | null>`min(${items.createdAt})` })
        .from(items)
        .where(and(gt(items.createdAt, since), inArray(items.source, sources))),
    ctx.signal,
  );

  // The sites' items stored may cover less than a week (a new installation, a site just set
  // up): the forecast divides by what they cover (an hour at least) and says what that is.
  const oldestAt = oldest?.at ? new Date(oldest.at).getTime() : now.getTime();
  const coveredMs = Math.min(PREVIEW_DAYS * DAY_MS, Math.max(0, now.getTime() - oldestAt));
  let count = found;
  let basis: MonitorPreview['basis'] = null;
  if (scan.stoppedBy) {
    // The hours read are the newest; their rate of matches stands for the rest of the week.
    const readMs = Math.max(HOUR_MS / 60, now.getTime() - (scan.oldestReadAt ?? now.getTime()));
    count = Math.max(found, Math.round(found * Math.max(1, coveredMs / readMs)));
    basis = {
      itemsExamined: scan.examined,
      hoursExamined: Math.round((readMs / HOUR_MS) * 10) / 10,
      stoppedBy: scan.stoppedBy,
    };
  }
  return {
    count,
    perDay: Math.round((count / (Math.max(coveredMs, HOUR_MS) / DAY_MS)) * 10) / 10,
    coveredHours: Math.round((coveredMs / HOUR_MS) * 10) / 10,
    estimated: basis !== null,
    basis,
    items: shown,
  };
}

/**
 * An SQL condition every item the query matches meets: it holds one of the query's anchors.
 * Null when some anchor cannot be checked by full-text search (then every item is a candidate).
 */
function anchorCondition(ast: QueryNode): SQL | null {
  const set = chooseAnchors(ast);
  if (!set) return null;
  const texts: string[] = [];
  const names: SQL[] = [];
  for (const anchor of set.anchors) {
    const condition = anchorText(anchor);
    if (condition === null) return null;
    if (typeof condition === 'string') texts.push(condition);
    else names.push(condition);
  }
  const parts = [...names];
  if (texts.length > 0) {
    parts.push(sql`${items.search} @@ ${texts.join(' | ')}::tsquery`);
  }
  return parts.length === 1 ? (parts[0] as SQL) : sql`(${sql.join(parts, sql` or `)})`;
}

/** A tsquery for a word or prefix anchor, an SQL condition for a name, null when impossible. */
function anchorText(anchor: Anchor): string | SQL | null {
  switch (anchor.kind) {
    case 'word':
    case 'prefix': {
      const text = anchor.kind === 'word' ? anchor.word : anchor.prefix;
      const lexemes = searchLexemes(text);
      if (!isFoldable(text) || lexemes.length === 0) return null;
      const last = lexemes.length - 1;
      const terms = lexemes.map((lexeme, i) =>
        searchQueryTerm(lexeme, anchor.kind === 'prefix' && i === last),
      );
      return `(${terms.join(' & ')})`;
    }
    case 'community':
      return sql`lower(${items.community}) = ${anchor.name}`;
    case 'author':
      return sql`lower(${items.author}) = ${anchor.name}`;
  }
}

/** The item as the alert it would make: the same mapping as a stored match, with the item's id. */
function previewMatch(
  item: WithSignals<ItemRow>,
  highlights: readonly Highlight[],
  now: Date,
): Match {
  const match = matchOfItem(item, highlights);
  return toMatch({
    ...match,
    ...unratedRelevance(match),
    id: item.id,
    monitorId: '',
    matchedAt: now,
    readAt: null,
    signalsCorrected: false,
  });
}
