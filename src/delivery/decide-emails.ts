import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { emailDeliveryState } from '../db/schema/delivery.ts';
import { matches } from '../db/schema/matches.ts';
import { monitors } from '../db/schema/monitors.ts';
import { users } from '../db/schema/users.ts';
import { HELD_BACK_SQL } from '../matches/relevance-held.ts';
import { matchColumns, toMatch } from '../matches/to-match.ts';
import { formatCommunity, type SourceName } from '../shared/sources.ts';
import { isTimeZone } from '../shared/user.ts';
import { renderAlertEmail } from './alert-email.ts';
import { clearPending, planBatch } from './batch.ts';
import { type DeliveryContext, deliveryLinks, unsubscribeHeaders } from './delivery-context.ts';
import { entryMutes } from './mute-token.ts';
import { queueMessage } from './outbox.ts';
import { planRhythms, rhythmOf } from './rhythm.ts';
import { localDay, nextLocalTime } from './schedule.ts';

const USERS_PER_PASS = 500;

/**
 * The email decider (docs/decisions/0015-delivery-outbox.md). For each user with matches not yet
 * decided on (`matches.email_pending`), in one transaction holding the user's row: drops the
 * matches of muted monitors and those under their monitor's relevance threshold (and all of them
 * when alerts are off); opens the batch when it first
 * sees matches; once the batch is due for the user's mode, writes one outbox row covering every
 * waiting match up to the daily cap and clears their flags; matches over the cap keep theirs
 * and lead the next email (decision 0037), which says how many it carries over. Matches committed by another process
 * meanwhile are still flagged and wait for the next batch, so none is skipped or covered twice.
 */
export async function decideEmails(ctx: DeliveryContext): Promise<{ queued: number }> {
  const now = ctx.clock.now();
  // Users with matches waiting, except those whose batch is open and not due yet for the mode
  // and time zone it was computed for (a changed setting makes the user due for a new look).
  const waiting = await ctx.db
    .selectDistinct({ userId: matches.userId })
    .from(matches)
    .innerJoin(users, eq(users.id, matches.userId))
    .leftJoin(emailDeliveryState, eq(emailDeliveryState.userId, matches.userId))
    .where(
      and(
        eq(matches.emailPending, true),
        or(
          isNull(emailDeliveryState.dueAt),
          lte(emailDeliveryState.dueAt, now),
          sql`${emailDeliveryState.dueFor} is distinct from ${users.emailAlerts} || '|' || ${users.timezone}`,
        ),
      ),
    )
    .limit(USERS_PER_PASS);
  let queued = 0;
  for (const { userId } of waiting) {
    if (await decideUserEmail(ctx, userId)) queued++;
  }
  return { queued };
}

async function decideUserEmail(ctx: DeliveryContext, userId: string): Promise<boolean> {
  const now = ctx.clock.now();
  const { config } = ctx;
  return ctx.db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!user) return false;
    await tx.insert(emailDeliveryState).values({ userId }).onConflictDoNothing();
    const [state] = await tx
      .select()
      .from(emailDeliveryState)
      .where(eq(emailDeliveryState.userId, userId));
    const pendingOf = and(eq(matches.userId, userId), eq(matches.emailPending, true));

    if (user.emailAlerts === 'off') {
      await tx.update(matches).set({ emailPending: false }).where(pendingOf);
      await tx
        .update(emailDeliveryState)
        .set({ pendingSince: null, dueAt: null, dueFor: null })
        .where(eq(emailDeliveryState.userId, userId));
      return false;
    }
    // Muted monitors and feed-only ones send no email.
    const silent = tx
      .select({ id: monitors.id })
      .from(monitors)
      .where(
        and(
          eq(monitors.userId, userId),
          or(eq(monitors.emailMuted, true), eq(monitors.delivery, 'feed')),
        ),
      );
    await tx
      .update(matches)
      .set({ emailPending: false })
      .where(and(pendingOf, or(inArray(matches.monitorId, silent), sql.raw(HELD_BACK_SQL))));

    const rows = await tx
      .select({ id: matches.id, monitorId: matches.monitorId, delivery: monitors.delivery })
      .from(matches)
      .innerJoin(monitors, eq(monitors.id, matches.monitorId))
      .where(pendingOf)
      .orderBy(asc(matches.id));
    const mode = user.emailAlerts;
    const pending = rows.flatMap((row) => {
      const rhythm = rhythmOf(row.delivery, mode);
      return rhythm ? [{ id: row.id, monitorId: row.monitorId, rhythm }] : [];
    });
    if (pending.length === 0) {
      if (state?.pendingSince || Object.keys(state?.batches ?? {}).length > 0) {
        await tx
          .update(emailDeliveryState)
          .set({ pendingSince: null, dueAt: null, dueFor: null, batches: {} })
          .where(eq(emailDeliveryState.userId, userId));
      }
      return false;
    }
    const timeZone = isTimeZone(user.timezone) ? user.timezone : 'UTC';
    // A batch opened before rhythms per monitor has only `pendingSince`: the user's mode's.
    const opened = { ...(state?.batches ?? {}) };
    if (state?.pendingSince && opened[mode] === undefined) {
      opened[mode] = state.pendingSince.toISOString();
    }
    const rhythms = planRhythms({
      rhythms: new Set(pending.map((match) => match.rhythm)),
      batches: opened,
      now,
      timeZone,
      quietHours: user.quietHours ?? null,
      batchSeconds: config.ALERT_BATCH_SECONDS,
    });
    const waitUntil = async (next: Date | null, batches: Record<string, string>) => {
      const since = Object.values(batches).sort()[0];
      await tx
        .update(emailDeliveryState)
        .set({
          pendingSince: since ? new Date(since) : null,
          dueAt: next,
          dueFor: `${mode}|${user.timezone}`,
          batches,
        })
        .where(eq(emailDeliveryState.userId, userId));
    };
    const candidates = pending.filter((match) => rhythms.due.includes(match.rhythm));
    if (candidates.length === 0) {
      await waitUntil(rhythms.nextDue, { ...rhythms.batches });
      return false;
    }
    const plan = planBatch({
      pending: candidates,
      pendingSince: now,
      dueAt: (since) => since,
      now,
      today: localDay(now, timeZone),
      tomorrow: nextLocalTime(now, timeZone, 0),
      cap: {
        limit: config.EMAIL_DAILY_CAP,
        day: state?.capDay ?? null,
        count: state?.capCount ?? 0,
      },
    });
    if (!plan.due) {
      // Today's cap is full: everything due waits for the next local day.
      const next = rhythms.nextDue && rhythms.nextDue < plan.dueAt ? rhythms.nextDue : plan.dueAt;
      await waitUntil(next, { ...rhythms.batches });
      return false;
    }

    // Only what this email covers: matches over the cap keep their flag for the next one.
    await clearPending(
      tx,
      'emailPending',
      plan.covered.map((m) => m.id),
    );
    // The rhythms sent close their batch, unless the cap held some of their matches back.
    const coveredIds = new Set(plan.covered.map((match) => match.id));
    const left = { ...rhythms.batches };
    for (const rhythm of rhythms.due) {
      const held = candidates.some((m) => m.rhythm === rhythm && !coveredIds.has(m.id));
      if (!held) delete left[rhythm];
    }
    const since = Object.values(left).sort()[0];
    await tx
      .update(emailDeliveryState)
      .set({
        pendingSince: since ? new Date(since) : null,
        dueAt: plan.held > 0 ? null : rhythms.nextDue,
        dueFor: plan.held > 0 ? null : `${mode}|${user.timezone}`,
        batches: left,
        capDay: plan.capDay,
        capCount: plan.capCount,
        heldCount: plan.covered.length > 0 ? plan.held : (state?.heldCount ?? 0),
      })
      .where(eq(emailDeliveryState.userId, userId));
    const { covered } = plan;
    if (covered.length === 0) return false;
    const heldOver = Math.min(state?.heldCount ?? 0, covered.length);

    const counts = new Map<string, number>();
    for (const match of covered)
      counts.set(match.monitorId, (counts.get(match.monitorId) ?? 0) + 1);
    const monitorRows = await tx
      .select({ id: monitors.id, name: monitors.name, query: monitors.query })
      .from(monitors)
      .where(inArray(monitors.id, [...counts.keys()]));
    // Every covered match (at most the daily cap): the email groups them into entries first.
    const listedIds = covered.map((m) => m.id);
    const listed = await tx
      .select(matchColumns)
      .from(matches)
      .where(sql`${matches.id} = any(${sql.param(listedIds)}::bigint[])`)
      .orderBy(asc(matches.id));

    const token = ctx.tokens.sign(userId);
    const links = deliveryLinks(config, token);
    const email = renderAlertEmail({
      timeZone,
      monitors: monitorRows.map((row) => ({ ...row, count: counts.get(row.id) ?? 0 })),
      listed: listed.map(toMatch),
      total: covered.length,
      capReached: plan.capReached ? { cap: config.EMAIL_DAILY_CAP, held: plan.held } : null,
      heldOver,
      links: {
        alerts: links.alerts,
        settings: links.settings,
        unsubscribe: links.unsubscribePage,
        rate: (matchId, rating) => links.rate(ctx.tokens.signRating(matchId, rating)),
      },
      muteLinks: (entry, monitorId) =>
        entryMutes({ userId, monitorId, match: entry.lead.match }).map(({ kind, mute }) => ({
          label: muteLabel(kind, entry.lead.match),
          href: `${config.publicUrl}/mute?token=${encodeURIComponent(ctx.tokens.signMute(mute))}`,
        })),
    });
    return queueMessage(
      tx,
      {
        channel: 'email',
        purpose: 'alert',
        userId,
        about: userId,
        matchIds: covered.map((m) => m.id),
        payload: { to: user.email, ...email, headers: unsubscribeHeaders(links) },
      },
      now,
    );
  });
}

/** "Mute this thread", "Mute pg", "Mute r/programming". */
function muteLabel(
  kind: 'thread' | 'author' | 'community',
  match: { source: SourceName; author: string | null; community: string | null },
): string {
  if (kind === 'thread') return 'Mute this thread';
  if (kind === 'author') return `Mute ${match.author ?? ''}`;
  return `Mute ${formatCommunity(match.source, match.community ?? '')}`;
}
