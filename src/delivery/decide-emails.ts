import { createHash } from 'node:crypto';
import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { deliveryOutbox, emailDeliveryState } from '../db/schema/delivery.ts';
import { matches } from '../db/schema/matches.ts';
import { monitors } from '../db/schema/monitors.ts';
import { users } from '../db/schema/users.ts';
import { isTimeZone } from '../shared/user.ts';
import { type EmailMatch, MAX_LISTED, renderAlertEmail } from './alert-email.ts';
import { type DeliveryContext, deliveryLinks, unsubscribeHeaders } from './delivery-context.ts';
import { dueAt, localDay } from './schedule.ts';

/** What the outbox keeps of an email: rendered once, when the decision is taken. */
export type EmailPayload = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
};

const USERS_PER_PASS = 500;

/**
 * The email decider (docs/decisions/0015-delivery-outbox.md). For each user with matches not yet
 * decided on (`matches.email_pending`), in one transaction holding the user's row: drops the
 * matches of muted monitors (and all of them when alerts are off); opens the batch when it first
 * sees matches; once the batch is due for the user's mode, writes one outbox row covering every
 * waiting match up to the daily cap and clears their flags. Matches committed by another process
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
    const muted = tx
      .select({ id: monitors.id })
      .from(monitors)
      .where(and(eq(monitors.userId, userId), eq(monitors.emailMuted, true)));
    await tx
      .update(matches)
      .set({ emailPending: false })
      .where(and(pendingOf, inArray(matches.monitorId, muted)));

    const pending = await tx
      .select({ id: matches.id, monitorId: matches.monitorId })
      .from(matches)
      .where(pendingOf)
      .orderBy(asc(matches.id));
    if (pending.length === 0) {
      if (state?.pendingSince) {
        await tx
          .update(emailDeliveryState)
          .set({ pendingSince: null, dueAt: null, dueFor: null })
          .where(eq(emailDeliveryState.userId, userId));
      }
      return false;
    }
    const timeZone = isTimeZone(user.timezone) ? user.timezone : 'UTC';
    const since = state?.pendingSince ?? now;
    const due = dueAt({
      mode: user.emailAlerts,
      pendingSince: since,
      timeZone,
      batchSeconds: config.ALERT_BATCH_SECONDS,
    });
    if (due.getTime() > now.getTime()) {
      await tx
        .update(emailDeliveryState)
        .set({ pendingSince: since, dueAt: due, dueFor: `${user.emailAlerts}|${user.timezone}` })
        .where(eq(emailDeliveryState.userId, userId));
      return false;
    }

    const day = localDay(now, timeZone);
    const used = state?.capDay === day ? state.capCount : 0;
    const room = Math.max(0, config.EMAIL_DAILY_CAP - used);
    const covered = pending.slice(0, room);
    const over = pending.length - covered.length;
    await tx
      .update(matches)
      .set({ emailPending: false })
      .where(sql`${matches.id} = any(${sql.param(pending.map((m) => m.id))}::bigint[])`);
    await tx
      .update(emailDeliveryState)
      .set({
        pendingSince: null,
        dueAt: null,
        dueFor: null,
        capDay: day,
        capCount: used + covered.length,
      })
      .where(eq(emailDeliveryState.userId, userId));
    if (covered.length === 0) return false;

    const counts = new Map<string, number>();
    for (const match of covered)
      counts.set(match.monitorId, (counts.get(match.monitorId) ?? 0) + 1);
    const monitorRows = await tx
      .select({ id: monitors.id, name: monitors.name, query: monitors.query })
      .from(monitors)
      .where(inArray(monitors.id, [...counts.keys()]));
    const listedIds = covered.slice(0, MAX_LISTED).map((m) => m.id);
    const listed = await tx
      .select()
      .from(matches)
      .where(sql`${matches.id} = any(${sql.param(listedIds)}::bigint[])`)
      .orderBy(asc(matches.id));

    const token = ctx.tokens.sign(userId);
    const links = deliveryLinks(config, token);
    const email = renderAlertEmail({
      timeZone,
      monitors: monitorRows.map((row) => ({ ...row, count: counts.get(row.id) ?? 0 })),
      listed: listed.map(toEmailMatch),
      total: covered.length,
      capReached:
        used + covered.length >= config.EMAIL_DAILY_CAP
          ? { cap: config.EMAIL_DAILY_CAP, left: over }
          : null,
      links: { alerts: links.alerts, settings: links.settings, unsubscribe: links.unsubscribePage },
    });
    const coveredIds = covered.map((m) => m.id);
    const payload: EmailPayload = {
      to: user.email,
      ...email,
      headers: unsubscribeHeaders(links),
    };
    const inserted = await tx
      .insert(deliveryOutbox)
      .values({
        channel: 'email',
        purpose: 'alert',
        userId,
        dedupeKey: `email:alert:${userId}:${digest(coveredIds)}`,
        matchIds: coveredIds,
        payload,
        nextAttemptAt: now,
        createdAt: now,
      })
      .onConflictDoNothing({ target: deliveryOutbox.dedupeKey })
      .returning({ id: deliveryOutbox.id });
    return inserted.length > 0;
  });
}

/** A short, stable name for a set of match ids (the outbox's unique key). */
export function digest(ids: readonly number[]): string {
  return createHash('sha256').update(ids.join(',')).digest('base64url').slice(0, 32);
}

export function toEmailMatch(row: typeof matches.$inferSelect): EmailMatch {
  return {
    id: row.id,
    monitorId: row.monitorId,
    source: row.source,
    kind: row.kind,
    title: row.title,
    snippet: row.snippet,
    highlights: row.highlights,
    url: row.url,
    permalink: row.permalink,
    author: row.author,
    community: row.community,
    itemCreatedAt: row.itemCreatedAt,
  };
}
