import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { matchColumns, toMatch } from '../../matches/to-match.ts';
import type { Match, UpdateMatchSignalsBody } from '../../shared/match.ts';
import { matchNotFound } from './match-not-found.ts';

/**
 * The user's correction of a match's signals (its intents, sentiment or language; what the body
 * leaves out stays): applied to every match of the same item the user has (one alert however
 * many monitors caught it), flagged `signalsCorrected`, and their stored feed JSON written again.
 * The item's own signals stay as read: another user's alerts of it are theirs.
 */
export async function correctMatchSignals(
  ctx: { db: Database },
  input: { userId: string; matchId: string; signals: UpdateMatchSignalsBody },
): Promise<Match> {
  const { intents, sentiment, language } = input.signals;
  return ctx.db.transaction(async (tx) => {
    const [match] = await tx
      .select({ source: matches.source, externalId: matches.externalId })
      .from(matches)
      .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)));
    if (!match) throw matchNotFound();
    const sameItem = and(
      eq(matches.userId, input.userId),
      eq(matches.source, match.source),
      eq(matches.externalId, match.externalId),
    );
    const updated = await tx
      .update(matches)
      .set({
        ...(intents !== undefined ? { intents } : {}),
        ...(sentiment !== undefined ? { sentiment } : {}),
        ...(language !== undefined ? { language } : {}),
        signalsCorrected: true,
      })
      .where(sameItem)
      .returning({ id: matches.id });
    // The JSON the feed reads is written on insert; a correction is the one other writer.
    await tx
      .update(matches)
      .set({ feedJson: sql`match_feed_json(${matches})` })
      .where(
        inArray(
          matches.id,
          updated.map((row) => row.id),
        ),
      );
    const [row] = await tx
      .select(matchColumns)
      .from(matches)
      .where(eq(matches.id, Number(input.matchId)));
    if (!row) throw matchNotFound();
    return toMatch(row);
  });
}
