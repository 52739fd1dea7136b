import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { threadFollows } from '../../db/schema/monitors.ts';
import { ValidationError } from '../errors.ts';
import { matchNotFound } from './match-not-found.ts';

/** How long a followed thread's new items come as alerts. */
export const FOLLOW_DAYS = 7;

/**
 * Follows (or stops following) the thread of one of the user's matches (decision 0038): for
 * FOLLOW_DAYS from `now`, the thread's new items are matches of the match's monitor whether or
 * not they hold its words, so a user who answered sees the answers. Following again renews it.
 */
export async function followThread(
  ctx: { db: Database },
  input: { userId: string; matchId: string; follow: boolean; now: Date },
): Promise<{ following: boolean; until: string | null }> {
  const [match] = await ctx.db
    .select({ monitorId: matches.monitorId, source: matches.source, threadId: matches.threadId })
    .from(matches)
    .where(and(eq(matches.id, Number(input.matchId)), eq(matches.userId, input.userId)));
  if (!match) throw matchNotFound();
  if (!match.threadId) {
    const message = 'This alert’s thread is not known, so it cannot be followed.';
    throw new ValidationError(message, [{ path: 'id', message }]);
  }
  const key = and(
    eq(threadFollows.monitorId, match.monitorId),
    eq(threadFollows.source, match.source),
    eq(threadFollows.threadId, match.threadId),
  );
  if (!input.follow) {
    await ctx.db.delete(threadFollows).where(key);
    return { following: false, until: null };
  }
  const until = new Date(input.now.getTime() + FOLLOW_DAYS * 86_400_000);
  await ctx.db
    .insert(threadFollows)
    .values({ monitorId: match.monitorId, source: match.source, threadId: match.threadId, until })
    .onConflictDoUpdate({
      target: [threadFollows.monitorId, threadFollows.source, threadFollows.threadId],
      set: { until },
    });
  return { following: true, until: until.toISOString() };
}
