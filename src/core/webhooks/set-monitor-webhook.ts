import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { type MonitorWebhookRow, monitorWebhooks } from '../../db/schema/delivery.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { webhookUrlProblem } from '../../delivery/webhooks/webhook-address.ts';
import type { MonitorWebhook, SetWebhookBody } from '../../shared/webhook.ts';
import { monitorNotFound, webhookUrlInvalid } from './webhook-errors.ts';

type Ctx = { db: Database; config: Pick<Config, 'WEBHOOK_ALLOW_PRIVATE'> };

/**
 * Sets, replaces or (with null) removes a monitor's one webhook, for its owner only. Saving
 * clears the failure count and resumes a paused webhook; the signing secret is made once and
 * kept across edits, so a receiver's verification keeps working.
 */
export async function setMonitorWebhook(
  ctx: Ctx,
  input: { userId: string; monitorId: string; webhook: SetWebhookBody },
): Promise<MonitorWebhook | null> {
  await findOwnMonitor(ctx.db, input.userId, input.monitorId);
  if (input.webhook === null) {
    await ctx.db.delete(monitorWebhooks).where(eq(monitorWebhooks.monitorId, input.monitorId));
    return null;
  }
  const url = input.webhook.url.trim();
  const problem = webhookUrlProblem(url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  if (problem) throw webhookUrlInvalid(problem);
  const [row] = await ctx.db
    .insert(monitorWebhooks)
    .values({
      monitorId: input.monitorId,
      userId: input.userId,
      kind: input.webhook.kind,
      url,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
    })
    .onConflictDoUpdate({
      target: monitorWebhooks.monitorId,
      set: {
        kind: input.webhook.kind,
        url,
        failureCount: 0,
        pausedAt: null,
        pausedReason: null,
        updatedAt: new Date(),
      },
    })
    .returning();
  if (!row) throw new Error('The webhook was not stored.');
  return toMonitorWebhook(row);
}

export async function findOwnMonitor(db: Database, userId: string, monitorId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(monitorId)) {
    throw monitorNotFound();
  }
  const [monitor] = await db
    .select({ id: monitors.id, name: monitors.name, query: monitors.query })
    .from(monitors)
    .where(and(eq(monitors.id, monitorId), eq(monitors.userId, userId)));
  if (!monitor) throw monitorNotFound();
  return monitor;
}

export function toMonitorWebhook(row: MonitorWebhookRow): MonitorWebhook {
  return {
    kind: row.kind,
    url: row.url,
    secret: row.secret,
    paused: row.pausedAt !== null,
    pausedReason: row.pausedReason,
  };
}
