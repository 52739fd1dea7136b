import { eq } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { renderAlertEmail } from '../../delivery/alert-email.ts';
import { deliveryLinks, unsubscribeHeaders } from '../../delivery/delivery-context.ts';
import { queueMessage } from '../../delivery/outbox.ts';
import type { UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';
import { sampleMatch } from '../../matches/sample-match.ts';
import type { Clock } from '../../platform/clock.ts';
import { isTimeZone } from '../../shared/user.ts';
import { NotFoundError, RateLimitedError } from '../errors.ts';

/**
 * Queues "send me a test email": the alert template with one sample match (made by the matcher
 * from a sample post, as real ones are), through the same outbox and sender as real alerts, so it proves the whole path (SMTP settings included).
 * Sent whatever the alert mode is: the user asked for it. One a minute per user: the outbox key
 * names the minute, so a second one within it is refused.
 */
export async function queueTestEmail(
  ctx: {
    db: Database;
    config: Pick<Config, 'publicUrl' | 'MAIL_FROM'>;
    clock: Clock;
    tokens: UnsubscribeTokens;
  },
  userId: string,
): Promise<{ queued: true; to: string }> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!user)
    throw new NotFoundError(
      'There is no user record for this account yet. POST /api/user creates it.',
    );
  const now = ctx.clock.now();
  const minute = Math.floor(now.getTime() / 60_000);
  const links = deliveryLinks(ctx.config, ctx.tokens.sign(userId));
  const query = 'pglite';
  const sample = renderAlertEmail({
    timeZone: isTimeZone(user.timezone) ? user.timezone : 'UTC',
    monitors: [{ id: '', name: '', query, count: 1 }],
    listed: [
      sampleMatch({
        query,
        monitorId: '',
        title: 'Show HN: Postgres in the browser with PGlite',
        body: 'An example of what an alert looks like: PGlite runs Postgres in WebAssembly.',
        now,
      }),
    ],
    total: 1,
    capReached: null,
    links: { alerts: links.alerts, settings: links.settings, unsubscribe: links.unsubscribePage },
  });
  const queued = await queueMessage(
    ctx.db,
    {
      channel: 'email',
      purpose: 'test',
      userId,
      about: userId,
      unique: `minute ${minute}`,
      payload: {
        to: user.email,
        subject: 'Earshot test email: this is how your alerts look',
        text: `This is a test email you asked for in Settings. Alerts look like this:\n\n${sample.text}`,
        html: sample.html,
        headers: unsubscribeHeaders(links),
      },
    },
    now,
  );
  if (!queued) {
    throw new RateLimitedError(
      'A test email is already on its way. Try again in a minute.',
      60 - Math.floor((now.getTime() % 60_000) / 1000),
    );
  }
  return { queued: true, to: user.email };
}
