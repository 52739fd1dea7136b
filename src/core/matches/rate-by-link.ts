import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import type { UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';
import type { RatingLink } from '../../shared/match.ts';
import { ValidationError } from '../errors.ts';
import { matchNotFound } from './match-not-found.ts';
import { rateMatch } from './rate-match.ts';

/**
 * The "relevant" / "not relevant" links of an alert email (docs/product.md, "Relevance"): the
 * signed token names the match and the rating (the unsubscribe tokens' rules, decision 0033), so
 * no sign-in is needed. `read` says what the link would do and changes nothing (a mail scanner's
 * visit); `apply` rates the match, or with `undo` takes the rating back.
 */
export async function readRatingLink(
  ctx: { db: Database; tokens: UnsubscribeTokens },
  token: string | undefined,
): Promise<RatingLink> {
  const { matchId, rating } = verify(ctx.tokens, token);
  const [row] = await ctx.db
    .select({ title: matches.title, threadTitle: matches.threadTitle, current: matches.rating })
    .from(matches)
    .where(eq(matches.id, Number(matchId)));
  if (!row) throw matchNotFound();
  return { rating, title: row.title ?? row.threadTitle ?? '', current: row.current };
}

export async function applyRatingLink(
  ctx: { db: Database; tokens: UnsubscribeTokens },
  input: { token: string | undefined; undo: boolean },
): Promise<RatingLink> {
  const { matchId, rating } = verify(ctx.tokens, input.token);
  const [row] = await ctx.db
    .select({ userId: matches.userId })
    .from(matches)
    .where(eq(matches.id, Number(matchId)));
  if (!row) throw matchNotFound();
  const match = await rateMatch(ctx, {
    userId: row.userId,
    matchId,
    rating: input.undo ? null : rating,
  });
  return { rating, title: match.title ?? match.threadTitle ?? '', current: match.rating };
}

function verify(tokens: UnsubscribeTokens, token: string | undefined) {
  const found = token ? tokens.verifyRating(token.trim()) : null;
  if (!found) {
    const message =
      'This rating link is not valid (it may be cut short or altered). Rate the alert on the Alerts page instead.';
    throw new ValidationError(message, [{ path: 'token', message }]);
  }
  return found;
}
