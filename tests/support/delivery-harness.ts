import type { Database } from '../../src/db/client.ts';
import type { DeliveryContext } from '../../src/delivery/delivery-context.ts';
import { runDeliveryPass } from '../../src/delivery/start-delivery.ts';
import { loadUnsubscribeTokens } from '../../src/delivery/unsubscribe-token.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import type { MonitorDelivery } from '../../src/shared/monitor.ts';
import type { EmailAlertMode, QuietHours } from '../../src/shared/user.ts';
import type { NormalisedItem } from '../../src/sources/normalised-item.ts';
import { createMonitor, createUser, uniqueEmail } from './factories.ts';
import { createManualClock } from './manual-clock.ts';
import { startTestApp, type TestApp } from './test-app.ts';

export type DeliveryHarness = {
  app: TestApp;
  db: Database;
  ctx: DeliveryContext;
  /** Delivery's clock (separate from the identity service's): `set`, `advance`. */
  clock: ReturnType<typeof createManualClock>;
  events: MatchEvents;
  addUser(options?: {
    emailAlerts?: EmailAlertMode;
    timezone?: string;
    firstName?: string;
    quietHours?: QuietHours;
  }): Promise<{ id: string; email: string }>;
  addMonitor(
    userId: string,
    query: string,
    options?: { name?: string; emailMuted?: boolean; delivery?: MonitorDelivery },
  ): Promise<{ id: string }>;
  /** Stores posts with these titles and runs the matcher, as the pipeline does. */
  publish(titles: readonly string[], overrides?: Partial<NormalisedItem>): Promise<number>;
  /** Stores these items (one site's batch) and runs the matcher, as the pipeline does. */
  publishItems(items: readonly NormalisedItem[]): Promise<number>;
  /** One delivery pass at the current clock: decide, then send. */
  pass(): Promise<void>;
  close(): Promise<void>;
};

let sequence = 0;

/**
 * The whole app on loopback (API, identity, SMTP sink) plus delivery driven by hand with a manual
 * clock. Matches are made the way production makes them: storeItems, then matchNewItems.
 */
export async function startDeliveryHarness(
  options: { env?: Record<string, string | undefined>; start?: string; webRoot?: string } = {},
): Promise<DeliveryHarness> {
  const app = await startTestApp({
    env: options.env ?? {},
    ...(options.webRoot ? { webRoot: options.webRoot } : {}),
  });
  const db = app.database.db;
  const manual = createManualClock(Date.parse(options.start ?? '2026-06-10T10:00:00Z'));
  const logger = createLogger('silent');
  const mailer = createMailer({ config: app.config, logger });
  const ctx: DeliveryContext = {
    db,
    config: app.config,
    clock: { now: () => new Date(manual.now()) },
    tokens: await loadUnsubscribeTokens(db, app.config.UNSUBSCRIBE_SECRET),
    mailer,
    logger,
  };
  const events = new MatchEvents();
  const publishItems = async (items: readonly NormalisedItem[]) => {
    await storeItems(db, { source: items[0]?.source ?? 'hackernews', items });
    const index = await loadMonitorIndex(db);
    let made = 0;
    for (;;) {
      const result = await matchNewItems({ db, index, events });
      made += result.matches;
      if (!result.more) break;
    }
    return made;
  };
  return {
    app,
    db,
    ctx,
    clock: manual,
    events,
    async addUser(overrides = {}) {
      const row = await createUser(db, {
        email: uniqueEmail('alerts'),
        firstName: overrides.firstName ?? 'Ada',
        emailAlerts: overrides.emailAlerts ?? 'instant',
        timezone: overrides.timezone ?? 'UTC',
        quietHours: overrides.quietHours ?? null,
      });
      return { id: row.id, email: row.email };
    },
    async addMonitor(userId, query, monitorOptions = {}) {
      const row = await createMonitor(db, {
        userId,
        query,
        name: monitorOptions.name ?? '',
        emailMuted: monitorOptions.emailMuted ?? false,
        delivery: monitorOptions.delivery ?? 'default',
      });
      return { id: row.id };
    },
    publishItems,
    publish(titles, overrides = {}) {
      const items = titles.map((title): NormalisedItem => {
        sequence += 1;
        const externalId = `${Date.now().toString(36)}-${sequence}`;
        return {
          source: 'hackernews',
          externalId,
          kind: 'post',
          title,
          body: '',
          url: null,
          permalink: `https://news.ycombinator.com/item?id=${externalId}`,
          author: 'pg',
          community: null,
          parentExternalId: null,
          threadTitle: null,
          createdAt: new Date(manual.now()).toISOString(),
          ...overrides,
        };
      });
      return publishItems(items);
    },
    pass: () => runDeliveryPass(ctx),
    async close() {
      await mailer.close();
      await app.close();
    },
  };
}
