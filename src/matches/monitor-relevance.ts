import { eq, sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../db/client.ts';
import { matches } from '../db/schema/matches.ts';
import { relevanceModels } from '../db/schema/monitors.ts';
import {
  emptyModel,
  type RelevanceInput,
  type RelevanceModel,
  type RelevanceScore,
  readModel,
  scoreMatch,
} from '../relevance/relevance-model.ts';

type Tx = Pick<Database, 'execute'>;

/** How many of a monitor's newest matches a change of its model scores again. */
export const RESCORE_LIMIT = 1000;

/** A score as stored: three decimals are all anyone reads. */
export function storedScore(score: RelevanceScore): RelevanceScore {
  return { relevance: Math.round(score.relevance * 1000) / 1000, reasons: score.reasons };
}

/** The models of these monitors that have one; the others score with the general signals. */
export async function loadRelevanceModels(
  tx: Tx,
  monitorIds: readonly string[],
  options: { forUpdate?: boolean } = {},
): Promise<Map<string, RelevanceModel>> {
  const models = new Map<string, RelevanceModel>();
  if (monitorIds.length === 0) return models;
  const rows = rowsOf<{ monitor_id: string; model: unknown }>(
    await tx.execute(sql`select monitor_id::text as monitor_id, model from ${relevanceModels}
      where monitor_id = any(${sql.param([...new Set(monitorIds)])}::uuid[])
      ${options.forUpdate ? sql`for update` : sql``}`),
  );
  for (const row of rows) {
    const model = typeof row.model === 'string' ? JSON.parse(row.model) : row.model;
    models.set(row.monitor_id, readModel(model));
  }
  return models;
}

export async function saveRelevanceModel(
  tx: Tx,
  monitorId: string,
  model: RelevanceModel,
): Promise<void> {
  await tx.execute(sql`insert into ${relevanceModels} (monitor_id, model, updated_at)
    values (${monitorId}, ${JSON.stringify(model)}::jsonb, now())
    on conflict (monitor_id) do update set model = excluded.model, updated_at = now()`);
}

/** A stored match's row as the model reads it. */
export const relevanceInputColumns = {
  id: matches.id,
  source: matches.source,
  kind: matches.kind,
  title: matches.title,
  threadTitle: matches.threadTitle,
  snippet: matches.snippet,
  highlights: matches.highlights,
  titleHighlights: matches.titleHighlights,
  hitFields: matches.hitFields,
  author: matches.author,
  community: matches.community,
  rating: matches.rating,
};

/**
 * Scores the newest RESCORE_LIMIT matches of a monitor again with its model, in the caller's
 * transaction (after a rating changed it), so the feed shows the new scores at once. Returns
 * how many it wrote.
 */
export async function rescoreMonitor(
  tx: Pick<Database, 'execute' | 'select'>,
  monitorId: string,
  model: RelevanceModel,
): Promise<number> {
  const rows = await tx
    .select(relevanceInputColumns)
    .from(matches)
    .where(eq(matches.monitorId, monitorId))
    .orderBy(sql`${matches.id} desc`)
    .limit(RESCORE_LIMIT);
  if (rows.length === 0) return 0;
  const scores = rows.map((row) => storedScore(scoreMatch(model, row as RelevanceInput)));
  await tx.execute(sql`update ${matches} set relevance = s.relevance,
      relevance_reasons = s.reasons::jsonb
    from unnest(${sql.param(rows.map((row) => row.id))}::bigint[],
      ${sql.param(scores.map((s) => s.relevance))}::real[],
      ${sql.param(scores.map((s) => JSON.stringify(s.reasons)))}::text[]) as s(id, relevance, reasons)
    where ${matches.id} = s.id`);
  return rows.length;
}

/**
 * The relevance fields of a match that is not stored (the preview, the sample alert): no
 * rating, and the general signals' score, as a monitor without ratings would give it.
 */
export function unratedRelevance(match: RelevanceInput): {
  rating: null;
  relevance: number;
  relevanceReasons: string[];
} {
  const score = storedScore(scoreMatch(emptyModel(), match));
  return { rating: null, relevance: score.relevance, relevanceReasons: score.reasons };
}
