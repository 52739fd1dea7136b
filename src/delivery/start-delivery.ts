import type { Config } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import type { MatchEvents } from '../matches/match-events.ts';
import { type Clock, systemClock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Mailer } from '../platform/mailer.ts';
import { decideEmails } from './decide-emails.ts';
import type { DeliveryContext } from './delivery-context.ts';
import { type ChannelSenders, drainOutbox } from './drain-outbox.ts';
import { pruneOutbox } from './prune-outbox.ts';
import { sendEmail } from './send-email.ts';
import { decideSpikes } from './spikes.ts';
import { loadUnsubscribeTokens } from './unsubscribe-token.ts';
import { decideWebhooks } from './webhooks/decide-webhooks.ts';
import { sendWebhook } from './webhooks/send-webhook.ts';

export type DeliveryDeps = {
  db: Database;
  config: Config;
  logger: Logger;
  mailer: Mailer;
  /** New matches of this process wake the loop at once; matches of other processes are found by polling. */
  events?: MatchEvents;
  clock?: Clock;
};

export const CHANNEL_SENDERS: ChannelSenders = { email: sendEmail, webhook: sendWebhook };

/** One pass of every step: decide what is due, then send what is queued. */
export async function runDeliveryPass(ctx: DeliveryContext): Promise<void> {
  await decideEmails(ctx);
  await decideWebhooks(ctx);
  await decideSpikes(ctx);
  for (let round = 0; round < 50; round++) {
    const { sent, failed, retrying, cancelled } = await drainOutbox(ctx, CHANNEL_SENDERS);
    if (sent + failed + retrying + cancelled === 0) break;
  }
}

/**
 * Runs delivery in this process until the returned function is called (it waits for the pass
 * under way). The embedded server starts it from main.ts; a worker process can start it the same
 * way, and several processes share the work safely (the outbox is claimed with SKIP LOCKED and
 * each user's decision holds the user's row).
 */
export async function startDelivery(deps: DeliveryDeps): Promise<() => Promise<void>> {
  const ctx: DeliveryContext = {
    db: deps.db,
    config: deps.config,
    clock: deps.clock ?? systemClock,
    tokens: await loadUnsubscribeTokens(deps.db, deps.config.UNSUBSCRIBE_SECRET),
    mailer: deps.mailer,
    logger: deps.logger,
  };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let prunedAt = 0;

  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, delay);
  };
  const run = () => {
    if (running) {
      again = true;
      return;
    }
    running = runDeliveryPass(ctx)
      .then(async () => {
        // Old finished rows go every ten minutes or so; the pass itself stays about sending.
        if (Date.now() - prunedAt > 600_000) {
          prunedAt = Date.now();
          await pruneOutbox(ctx);
        }
      })
      .catch((error: unknown) => deps.logger.error({ err: error }, 'delivery pass failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          schedule(0);
        } else schedule(deps.config.DELIVERY_POLL_MS);
      });
  };
  // A burst of matches wakes the loop once, shortly after, rather than once per batch.
  const unsubscribe = deps.events?.subscribe(() => schedule(50));
  schedule(0);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    unsubscribe?.();
    await running;
  };
}
