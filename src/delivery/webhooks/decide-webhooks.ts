import { and, asc, eq, isNull, notInArray, sql } from 'drizzle-orm';
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
import { dueAt, localDay } from '../schedule.ts';
import { buildWebhookBody, MATCHES_PER_CALL } from './webhook-payloads.ts';

const MONITORS_PER_PASS = 500;

/**
 * The webhook decider, the email decider's twin per monitor (docs/decisions/0016-webhooks.md):
 * matches of monitors without an active webhook are let go; for a monitor with one, its waiting
 * matches are gathered for ALERT_BATCH_SECONDS, then written as one or more outbox rows (at most
 * MATCHES_PER_CALL matches each) in the transaction that clears their flags, up to the webhook's
 * daily cap (WEBHOOK_DAILY_CAP) in the owner's time zone: the batching and cap of `planBatch`.
 */
export async function decideWebhooks(ctx: DeliveryContext): Promise<{ queued: number }> {
  const active = ctx.db
    .select({ id: monitorWebhooks.monitorId })
    .from(monitorWebhooks)
    .where(isNull(monitorWebhooks.pausedAt));
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
    const timeZone = owner && isTimeZone(owner.timezone) ? owner.timezone : 'UTC';
    const plan = planBatch({
      pending,
      pendingSince: hook.pendingSince,
      dueAt: (pendingSince) =>
        dueAt({
          mode: 'instant',
          pendingSince,
          timeZone,
          batchSeconds: config.ALERT_BATCH_SECONDS,
        }),
      now,
      today: localDay(now, timeZone),
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

    await clearPending(
      tx,
      'webhookPending',
      pending.map((m) => m.id),
    );
    await tx
      .update(monitorWebhooks)
      .set({ pendingSince: null, capDay: plan.capDay, capCount: plan.capCount })
      .where(eq(monitorWebhooks.monitorId, monitorId));
    const { covered } = plan;
    if (covered.length === 0) return 0;

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
    const alertsUrl = deliveryLinks(config, '').alerts;
    const size = MATCHES_PER_CALL[hook.kind];
    let queued = 0;
    for (let start = 0; start < rows.length; start += size) {
      const chunk = rows.slice(start, start + size);
      const last = start + size >= rows.length;
      const body = buildWebhookBody(hook.kind, {
        monitor,
        matches: chunk.map(toMatch),
        alertsUrl,
        notice:
          plan.capReached && last
            ? `Today's limit of ${config.WEBHOOK_DAILY_CAP} matches is reached${plan.left > 0 ? ` (${plan.left} more in Earshot only)` : ''}; calls resume tomorrow.`
            : null,
      });
      const queuedOne = await queueMessage(
        tx,
        {
          channel: 'webhook',
          purpose: 'alert',
          userId: hook.userId,
          monitorId,
          about: monitorId,
          matchIds: chunk.map((row) => row.id),
          payload: { body },
        },
        now,
      );
      if (queuedOne) queued++;
    }
    return queued;
  });
}
