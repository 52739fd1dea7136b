import { and, asc, eq, isNull, ne, notInArray, sql } from 'drizzle-orm';
import { monitorWebhooks } from '../../db/schema/delivery.ts';
import { matches } from '../../db/schema/matches.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { users } from '../../db/schema/users.ts';
import { HELD_BACK_SQL } from '../../matches/relevance-held.ts';
import { matchColumns, toMatch } from '../../matches/to-match.ts';
import { isTimeZone } from '../../shared/user.ts';
import { clearPending, planBatch } from '../batch.ts';
import { type DeliveryContext, deliveryLinks } from '../delivery-context.ts';
import { queueMessage } from '../outbox.ts';
import { dueAt, localDay, nextLocalTime } from '../schedule.ts';
import { buildWebhookBody, chunkEntries } from './webhook-payloads.ts';

const MONITORS_PER_PASS = 500;

/**
 * The webhook decider, the email decider's twin per monitor (docs/decisions/0016-webhooks.md):
 * matches of monitors without an active webhook are let go; for a monitor with one, its waiting
 * matches are gathered for ALERT_BATCH_SECONDS, then written as one or more outbox rows (at most
 * ENTRIES_PER_CALL entries each: a thread's matches, or one link's, are one entry) in the transaction that clears their flags, up to the webhook's
 * daily cap (WEBHOOK_DAILY_CAP) in the owner's time zone: the batching and cap of `planBatch`;
 * matches over the cap are held (still flagged) for the next day's first call, which says so.
 */
export async function decideWebhooks(ctx: DeliveryContext): Promise<{ queued: number }> {
  // Webhooks that are not paused, of monitors that do not keep to the feed.
  const active = ctx.db
    .select({ id: monitorWebhooks.monitorId })
    .from(monitorWebhooks)
    .innerJoin(monitors, eq(monitors.id, monitorWebhooks.monitorId))
    .where(and(isNull(monitorWebhooks.pausedAt), ne(monitors.delivery, 'feed')));
  await ctx.db
    .update(matches)
    .set({ webhookPending: false })
    .where(and(eq(matches.webhookPending, true), notInArray(matches.monitorId, active)));
  const waiting = await ctx.db
    .selectDistinct({ monitorId: matches.monitorId })
    .from(matches)
    .where(eq(matches.webhookPending, true))
    .limit(MONITORS_PER_PASS);
  let queued = 0;
  for (const { monitorId } of waiting) queued += await decideMonitorWebhook(ctx, monitorId);
  return { queued };
}

async function decideMonitorWebhook(ctx: DeliveryContext, monitorId: string): Promise<number> {
  const now = ctx.clock.now();
  const { config } = ctx;
  return ctx.db.transaction(async (tx) => {
    const [hook] = await tx
      .select()
      .from(monitorWebhooks)
      .where(eq(monitorWebhooks.monitorId, monitorId))
      .for('update');
    const pendingOf = and(eq(matches.monitorId, monitorId), eq(matches.webhookPending, true));
    if (!hook || hook.pausedAt) {
      await tx.update(matches).set({ webhookPending: false }).where(pendingOf);
      return 0;
    }
    // Under the monitor's relevance threshold: kept in the feed, not sent.
    await tx
      .update(matches)
      .set({ webhookPending: false })
      .where(and(pendingOf, sql.raw(HELD_BACK_SQL)));
    const pending = await tx
      .select({ id: matches.id })
      .from(matches)
      .where(pendingOf)
      .orderBy(asc(matches.id));
    if (pending.length === 0) return 0;
    const [owner] = await tx
      .select({ timezone: users.timezone })
      .from(users)
      .where(eq(users.id, hook.userId));
    const [rhythmRow] = await tx
      .select({ delivery: monitors.delivery })
      .from(monitors)
      .where(eq(monitors.id, monitorId));
    // A webhook follows its monitor's rhythm; `default` is instant (a channel, not an inbox).
    const delivery = rhythmRow?.delivery ?? 'default';
    const mode = delivery === 'default' || delivery === 'feed' ? 'instant' : delivery;
    const timeZone = owner && isTimeZone(owner.timezone) ? owner.timezone : 'UTC';
    const plan = planBatch({
      pending,
      pendingSince: hook.pendingSince,
      dueAt: (pendingSince) =>
        dueAt({
          mode,
          pendingSince,
          timeZone,
          batchSeconds: config.ALERT_BATCH_SECONDS,
        }),
      now,
      today: localDay(now, timeZone),
      tomorrow: nextLocalTime(now, timeZone, 0),
      cap: { limit: config.WEBHOOK_DAILY_CAP, day: hook.capDay, count: hook.capCount },
    });
    if (!plan.due) {
      if (!hook.pendingSince) {
        await tx
          .update(monitorWebhooks)
          .set({ pendingSince: plan.pendingSince })
          .where(eq(monitorWebhooks.monitorId, monitorId));
      }
      return 0;
    }

    // Only what these calls cover: matches over the cap keep their flag for the next day's.
    await clearPending(
      tx,
      'webhookPending',
      plan.covered.map((m) => m.id),
    );
    await tx
      .update(monitorWebhooks)
      .set({
        pendingSince: null,
        capDay: plan.capDay,
        capCount: plan.capCount,
        heldCount: plan.covered.length > 0 ? plan.held : hook.heldCount,
      })
      .where(eq(monitorWebhooks.monitorId, monitorId));
    const { covered } = plan;
    if (covered.length === 0) return 0;
    const heldOver = Math.min(hook.heldCount, covered.length);

    const [monitor] = await tx
      .select({ id: monitors.id, name: monitors.name, query: monitors.query })
      .from(monitors)
      .where(eq(monitors.id, monitorId));
    if (!monitor) return 0;
    const rows = await tx
      .select(matchColumns)
      .from(matches)
      .where(sql`${matches.id} = any(${sql.param(covered.map((m) => m.id))}::bigint[])`)
      .orderBy(asc(matches.id));
    const links = deliveryLinks(config, '');
    const alertsUrl = links.alerts;
    const rate = (matchId: string, rating: 'relevant' | 'irrelevant') =>
      links.rate(ctx.tokens.signRating(matchId, rating));
    const chunks = chunkEntries(hook.kind, rows.map(toMatch));
    let queued = 0;
    for (const [index, entries] of chunks.entries()) {
      const last = index === chunks.length - 1;
      const body = buildWebhookBody(hook.kind, {
        monitor,
        entries,
        alertsUrl,
        rate,
        notice: capNotice({
          first: index === 0,
          last,
          heldOver,
          plan,
          cap: config.WEBHOOK_DAILY_CAP,
        }),
      });
      const queuedOne = await queueMessage(
        tx,
        {
          channel: 'webhook',
          purpose: 'alert',
          userId: hook.userId,
          monitorId,
          about: monitorId,
          matchIds: entries.flatMap((entry) => entry.matches.map((match) => Number(match.id))),
          payload: { body },
        },
        now,
      );
      if (queuedOne) queued++;
    }
    return queued;
  });
}

/** What a call says of the cap: that it held matches over, or that it carries held ones. */
function capNotice(input: {
  first: boolean;
  last: boolean;
  heldOver: number;
  plan: { capReached: boolean; held: number };
  cap: number;
}): string | null {
  const notes: string[] = [];
  if (input.first && input.heldOver > 0) {
    notes.push(`Carries ${input.heldOver} matches held over from an earlier day's limit.`);
  }
  if (input.last && input.plan.capReached) {
    notes.push(
      `Today's limit of ${input.cap} matches is reached${input.plan.held > 0 ? `; ${input.plan.held} more ${input.plan.held === 1 ? 'is' : 'are'} held for tomorrow's first call` : '; later matches wait for tomorrow'}, none is lost.`,
    );
  }
  return notes.length > 0 ? notes.join(' ') : null;
}
