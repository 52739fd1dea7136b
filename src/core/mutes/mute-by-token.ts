import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { monitors, monitorThreadMutes } from '../../db/schema/monitors.ts';
import { type Mute, type MuteTokens, muteExclusion } from '../../delivery/mute-token.ts';
import { MONITOR_QUERY_MAX_LENGTH } from '../../shared/monitor.ts';
import type { MuteResult } from '../../shared/mute.ts';
import { ValidationError } from '../errors.ts';

/**
 * The mute links of alert emails (decision 0038), no sign-in: the token is the proof. A mute of
 * an author or a community adds a visible exclusion to the monitor's query (`-author:x`,
 * `-subreddit:y`), so the matcher stops matching them; a thread mute is listed on the monitor
 * and stops its matches there from being stored. Matches of it still waiting for an email or a
 * webhook call are let go. Undo takes the exclusion out again. A missing, altered, forged or
 * foreign token (another deployment's, a monitor of someone else or deleted since) changes
 * nothing and is refused.
 */
type Ctx = { db: Database; tokens: MuteTokens };

function invalidToken(): ValidationError {
  const message =
    'This mute link is not valid (it may be cut short or altered). Open the link from the email again, or change the monitor on the Monitors page.';
  return new ValidationError(message, [{ path: 'muteToken', message }]);
}

async function verified(ctx: Ctx, token: string | undefined) {
  const mute = token ? ctx.tokens.verifyMute(token.trim()) : null;
  if (!mute || (mute.k !== 'thread' && !muteExclusion(mute))) throw invalidToken();
  const [monitor] = await ctx.db
    .select({ id: monitors.id, name: monitors.name, query: monitors.query })
    .from(monitors)
    .where(and(eq(monitors.id, mute.m), eq(monitors.userId, mute.u)));
  if (!monitor) throw invalidToken();
  return { mute, monitor };
}

/** The row of a thread mute. */
const threadMuteOf = (mute: Mute) =>
  and(
    eq(monitorThreadMutes.monitorId, mute.m),
    eq(monitorThreadMutes.source, mute.s),
    eq(monitorThreadMutes.threadId, mute.v),
  );

const terms = (query: string) => query.split(/\s+/).filter(Boolean);

async function isMuted(db: Database, mute: Mute, query: string): Promise<boolean> {
  if (mute.k !== 'thread') return terms(query).includes(muteExclusion(mute) ?? '');
  const [row] = await db
    .select({ id: monitorThreadMutes.threadId })
    .from(monitorThreadMutes)
    .where(threadMuteOf(mute));
  return row !== undefined;
}

function result(
  mute: Mute,
  monitor: { id: string; name: string; query: string },
  muted: boolean,
): MuteResult {
  return {
    muted,
    kind: mute.k,
    source: mute.s,
    value: mute.v,
    title: mute.t ?? null,
    exclusion: muteExclusion(mute),
    monitor,
  };
}

/** What the link would do, and whether it is done already; changes nothing. */
export async function describeMute(ctx: Ctx, token: string | undefined): Promise<MuteResult> {
  const { mute, monitor } = await verified(ctx, token);
  return result(mute, monitor, await isMuted(ctx.db, mute, monitor.query));
}

export async function applyMute(ctx: Ctx, token: string | undefined): Promise<MuteResult> {
  const { mute, monitor } = await verified(ctx, token);
  return ctx.db.transaction(async (tx) => {
    let query = monitor.query;
    const exclusion = muteExclusion(mute);
    if (exclusion) {
      if (!terms(query).includes(exclusion)) query = `${query} ${exclusion}`;
      if (query.length > MONITOR_QUERY_MAX_LENGTH) {
        const message = `The monitor's query would pass ${MONITOR_QUERY_MAX_LENGTH} characters; shorten it on the Monitors page.`;
        throw new ValidationError(message, [{ path: 'muteToken', message }]);
      }
      await tx
        .update(monitors)
        .set({ query, updatedAt: new Date() })
        .where(eq(monitors.id, monitor.id));
    } else {
      await tx
        .insert(monitorThreadMutes)
        .values({ monitorId: mute.m, source: mute.s, threadId: mute.v, title: mute.t ?? null })
        .onConflictDoNothing();
    }
    // What still waits for an email or a call from this author, community or thread goes no further.
    const of =
      mute.k === 'thread'
        ? eq(matches.threadId, mute.v)
        : mute.k === 'author'
          ? sql`lower(${matches.author}) = lower(${mute.v})`
          : sql`lower(${matches.community}) = lower(${mute.v})`;
    await tx
      .update(matches)
      .set({ emailPending: false, webhookPending: false })
      .where(
        and(
          eq(matches.monitorId, mute.m),
          eq(matches.source, mute.s),
          of,
          sql`(${matches.emailPending} or ${matches.webhookPending})`,
        ),
      );
    return result(mute, { ...monitor, query }, true);
  });
}

export async function undoMute(ctx: Ctx, token: string | undefined): Promise<MuteResult> {
  const { mute, monitor } = await verified(ctx, token);
  let query = monitor.query;
  const exclusion = muteExclusion(mute);
  if (exclusion) {
    const kept = terms(query).filter((term) => term !== exclusion);
    if (kept.length !== terms(query).length) {
      query = kept.join(' ');
      await ctx.db
        .update(monitors)
        .set({ query, updatedAt: new Date() })
        .where(eq(monitors.id, monitor.id));
    }
  } else {
    await ctx.db.delete(monitorThreadMutes).where(threadMuteOf(mute));
  }
  return result(mute, { ...monitor, query }, false);
}
