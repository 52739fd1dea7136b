import type { Database } from '../../db/client.ts';
import { createMonitorIndex } from '../../matcher/monitor-index.ts';
import type { QueryNode } from '../../matcher/query-ast.ts';
import { SOURCE_NAMES, type SourceName } from '../../shared/sources.ts';
import { ValidationError } from '../errors.ts';
import type { PreviewGate } from './preview-gate.ts';
import { PREVIEW_DAYS } from './preview-monitor.ts';
import { scanRecentItems } from './scan-recent-items.ts';

/** The newest items of the last 7 days a query is tried on when it is saved. */
export const BREADTH_SAMPLE_ITEMS = 1000;
/** Below this many recent items the share says too little, and the check lets the query be. */
export const BREADTH_MIN_SAMPLE = 200;
const DAY_MS = 86_400_000;

export type BreadthContext = {
  db: Database;
  gate: PreviewGate;
  maxMatchPercent: number;
  now?: () => Date;
};

/**
 * Refuses a query that would match more than `maxMatchPercent` of its sites' recent items: what
 * it matches decides, not how it looks (an OR of common words passes the parser's breadth rules
 * and still matches half of everything). The items are the newest `BREADTH_SAMPLE_ITEMS` of the
 * week, read through the previews' gate so a save costs the database what a preview does.
 */
export async function checkMonitorBreadth(
  ctx: BreadthContext,
  input: { ast: QueryNode; sources: readonly SourceName[] | undefined },
): Promise<void> {
  const sources = input.sources && input.sources.length > 0 ? input.sources : SOURCE_NAMES;
  const index = createMonitorIndex();
  index.add('breadth', input.ast, { sources });
  const now = ctx.now?.() ?? new Date();
  let matched = 0;
  const { examined } = await scanRecentItems(
    { db: ctx.db, gate: ctx.gate, budget: { items: BREADTH_SAMPLE_ITEMS, ms: 10_000 } },
    { since: new Date(now.getTime() - PREVIEW_DAYS * DAY_MS), sources },
    (item) => {
      if (index.match(item).length > 0) matched++;
    },
  );
  if (examined < BREADTH_MIN_SAMPLE) return;
  const percent = (matched / examined) * 100;
  if (percent <= ctx.maxMatchPercent) return;
  const message = `it would match ${formatPercent(percent)} of recent posts (${matched} of the newest ${examined}), and a monitor may match at most ${formatPercent(ctx.maxMatchPercent)}. Add a word it must contain, use "quotes" for a phrase, or name a site or community.`;
  throw new ValidationError(`The query is too broad: ${message}`, [{ path: 'query', message }]);
}

function formatPercent(percent: number): string {
  return `${percent >= 10 ? Math.round(percent) : Math.round(percent * 10) / 10}%`;
}
