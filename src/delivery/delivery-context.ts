import type { Config } from '../config/env.ts';
import type { Database } from '../db/client.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Mailer } from '../platform/mailer.ts';
import type { UnsubscribeTokens } from './unsubscribe-token.ts';

/** The settings delivery reads; tests pass a `createTestConfig()` with their own values. */
export type DeliveryConfig = Pick<
  Config,
  | 'publicUrl'
  | 'MAIL_FROM'
  | 'ALERT_BATCH_SECONDS'
  | 'EMAIL_DAILY_CAP'
  | 'WEBHOOK_DAILY_CAP'
  | 'DELIVERY_LEASE_SECONDS'
  | 'DELIVERY_RETRY_BASE_SECONDS'
  | 'DELIVERY_MAX_ATTEMPTS'
  | 'WEBHOOK_ALLOW_PRIVATE'
  | 'WEBHOOK_TIMEOUT_MS'
  | 'WEBHOOK_MAX_FAILURES'
>;

/** What the deciders and the sender work with. Every time they keep comes from `clock`. */
export type DeliveryContext = {
  db: Database;
  config: DeliveryConfig;
  clock: Clock;
  tokens: UnsubscribeTokens;
  mailer: Mailer;
  logger: Logger;
};

/** The links every alert email carries, on PUBLIC_URL. */
export function deliveryLinks(config: Pick<Config, 'publicUrl' | 'MAIL_FROM'>, token: string) {
  const base = config.publicUrl;
  const encoded = encodeURIComponent(token);
  return {
    alerts: `${base}/dashboard/alerts`,
    settings: `${base}/dashboard/settings`,
    monitors: `${base}/dashboard/monitors`,
    unsubscribePage: `${base}/unsubscribe?token=${encoded}`,
    unsubscribeOneClick: `${base}/api/user/unsubscribe/one-click?unsubscribeToken=${encoded}`,
    unsubscribeMailto: `mailto:${mailFromAddress(config.MAIL_FROM)}?subject=unsubscribe&body=${encoded}`,
    /** The page that rates a match with one click, from a signed rating token. */
    rate: (ratingToken: string) => `${base}/feedback?token=${encodeURIComponent(ratingToken)}`,
  };
}

/** "Earshot <alerts@earshot.local>" → "alerts@earshot.local". */
export function mailFromAddress(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1]?.trim() ?? from.trim();
}

/** The List-Unsubscribe headers of RFC 2369 and RFC 8058 (one-click). */
export function unsubscribeHeaders(links: ReturnType<typeof deliveryLinks>) {
  return {
    'List-Unsubscribe': `<${links.unsubscribeOneClick}>, <${links.unsubscribeMailto}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
}
