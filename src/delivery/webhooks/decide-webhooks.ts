import { and, asc, eq, isNull, notInArray, sql } from 'drizzle-orm';
import { deliveryOutbox, monitorWebhooks } from '../../db/schema/delivery.ts';
import { matches } from '../../db/schema/matches.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { users } from '../../db/schema/users.ts';
import { toMatch } from '../../matches/to-match.ts';
import { isTimeZone } from '../../shared/user.ts';
import { digest } from '../decide-emails.ts';
import { type DeliveryContext, deliveryLinks } from '../delivery-context.ts';
import { localDay } from '../schedule.ts';
import { buildWebhookBody, MATCHES_PER_CALL } from './webhook-payloads.ts';

/** What the outbox keeps of a webhook call: the exact body (signed at send time). */
export type WebhookPayload = { body: string };

const MONITORS_PER_PASS = 500;

/**
 * The webhook decider, the email decider's twin per monitor (docs/decisions/0016-webhooks.md):
 * matches of monitors without an active webhook are let go; for a monitor with one, its waiting
 * matches are gathered for ALERT_BATCH_SECONDS, then written as one or more outbox rows (at most
 * MATCHES_PER_CALL matches each) in the transaction that clears their flags, up to the daily cap
 * in the owner's time zone.
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
    const pending = await tx
      .select({ id: matches.id })
      .from(matches)
      .where(pendingOf)
      .orderBy(asc(matches.id));
    if (pending.length === 0) return 0;
    const since = hook.pendingSince ?? now;
    if (!hook.pendingSince) {
      await tx
        .update(monitorWebhooks)
        .set({ pendingSince: since })
        .where(eq(monitorWebhooks.monitorId, monitorId));
    }
    if (since.getTime() + config.ALERT_BATCH_SECONDS * 1000 > now.getTime()) return 0;

    const [owner] = await tx
      .select({ timezone: users.timezone })
      .from(users)
      .where(eq(users.id, hook.userId));
    const day = localDay(now, owner && isTimeZone(owner.timezone) ? owner.timezone : 'UTC');
    const used = hook.capDay === day ? hook.capCount : 0;
    const room = Math.max(0, config.EMAIL_DAILY_CAP - used);
    const covered = pending.slice(0, room);
    const over = pending.length - covered.length;
    await tx
      .update(matches)
      .set({ webhookPending: false })
      .where(sql`${matches.id} = any(${sql.param(pending.map((m) => m.id))}::bigint[])`);
    await tx
      .update(monitorWebhooks)
      .set({ pendingSince: null, capDay: day, capCount: used + covered.length })
      .where(eq(monitorWebhooks.monitorId, monitorId));
    if (covered.length === 0) return 0;

    const [monitor] = await tx
      .select({ id: monitors.id, name: monitors.name, query: monitors.query })
      .from(monitors)
      .where(eq(monitors.id, monitorId));
    if (!monitor) return 0;
    const rows = await tx
      .select()
      .from(matches)
      .where(sql`${matches.id} = any(${sql.param(covered.map((m) => m.id))}::bigint[])`)
      .orderBy(asc(matches.id));
    const alertsUrl = deliveryLinks(config, '').alerts;
    const capped = used + covered.length >= config.EMAIL_DAILY_CAP;
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
          capped && last
            ? `Today's limit of ${config.EMAIL_DAILY_CAP} matches is reached${over > 0 ? ` (${over} more in Earshot only)` : ''}; calls resume tomorrow.`
            : null,
      });
      const ids = chunk.map((row) => row.id);
      const payload: WebhookPayload = { body };
      const inserted = await tx
        .insert(deliveryOutbox)
        .values({
          channel: 'webhook',
          purpose: 'alert',
          userId: hook.userId,
          monitorId,
          dedupeKey: `webhook:${monitorId}:${digest(ids)}`,
          matchIds: ids,
          payload,
          nextAttemptAt: now,
          createdAt: now,
        })
        .onConflictDoNothing({ target: deliveryOutbox.dedupeKey })
        .returning({ id: deliveryOutbox.id });
      queued += inserted.length;
    }
    return queued;
  });
}
