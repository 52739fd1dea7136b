import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import {
  loadRelevanceModels,
  relevanceInputColumns,
  rescoreMonitor,
  saveRelevanceModel,
} from '../../matches/monitor-relevance.ts';
import { matchColumns, toMatch } from '../../matches/to-match.ts';
import {
  DISMISS_WEIGHT,
  emptyModel,
  matchFeatures,
  type RelevanceInput,
  train,
} from '../../relevance/relevance-model.ts';
import type { Match, MatchRating } from '../../shared/match.ts';
import { matchNotFound } from './match-not-found.ts';

/**
 * Rates one of the user's matches relevant, not relevant, or (null) takes the rating back, and
 * teaches its monitor's model the change in the same transaction (the old rating's weight out,
 * the new one's in); then the monitor's newest matches are scored again, so the feed shows what
 * the rating changed. Returns the match with its new rating and score.
 */
export async function rateMatch(
  ctx: { db: Database },
  input: { userId: string; matchId: string; rating: MatchRating | null },
): Promise<Match> {
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ ...relevanceInputColumns, monitorId: matches.monitorId })
      .from(matches)
      .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)))
      .for('update');
    if (!row) throw matchNotFound();
    const { monitorId } = row;
    if (row.rating !== input.rating) {
      const models = await loadRelevanceModels(tx, [monitorId], { forUpdate: true });
      const model = models.get(monitorId) ?? emptyModel();
      const features = matchFeatures(row as RelevanceInput);
      if (row.rating) train(model, features, row.rating, -1);
      if (input.rating) train(model, features, input.rating, 1);
      await saveRelevanceModel(tx, monitorId, model);
      await tx.update(matches).set({ rating: input.rating }).where(eq(matches.id, row.id));
      await rescoreMonitor(tx, monitorId, model);
    }
    const [updated] = await tx.select(matchColumns).from(matches).where(eq(matches.id, row.id));
    if (!updated) throw matchNotFound();
    return toMatch(updated);
  });
}

/**
 * A dismissal teaches the monitor's model a weak "not relevant" (DISMISS_WEIGHT) when the match
 * was not rated; a rated one has taught it already. In the dismissing transaction.
 */
export async function learnFromDismissal(
  tx: Pick<Database, 'execute' | 'select'>,
  row: RelevanceInput & { monitorId: string; rating: MatchRating | null },
): Promise<void> {
  if (row.rating !== null) return;
  const models = await loadRelevanceModels(tx, [row.monitorId], { forUpdate: true });
  const model = models.get(row.monitorId) ?? emptyModel();
  train(model, matchFeatures(row), 'irrelevant', DISMISS_WEIGHT);
  await saveRelevanceModel(tx, row.monitorId, model);
}
