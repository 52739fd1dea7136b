import { eq } from 'drizzle-orm';
import type { Config } from '../../config/env.ts';
import type { Database } from '../../db/client.ts';
import { deliveryOutbox } from '../../db/schema/delivery.ts';
import { users } from '../../db/schema/users.ts';
import { renderAlertEmail } from '../../delivery/alert-email.ts';
import type { EmailPayload } from '../../delivery/decide-emails.ts';
import { deliveryLinks, unsubscribeHeaders } from '../../delivery/delivery-context.ts';
import type { UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';
import type { Clock } from '../../platform/clock.ts';
import { isTimeZone } from '../../shared/user.ts';
import { NotFoundError, RateLimitedError } from '../errors.ts';

/**
 * Queues "send me a test email": the alert template with one sample match, through the same
 * outbox and sender as real alerts, so it proves the whole path (SMTP settings included).
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
  const sample = renderAlertEmail({
    timeZone: isTimeZone(user.timezone) ? user.timezone : 'UTC',
    monitors: [{ id: '', name: '', query: 'pglite', count: 1 }],
    listed: [
      {
        id: 0,
        monitorId: '',
        source: 'hackernews',
        kind: 'post',
        title: 'Show HN: Postgres in the browser with PGlite',
        snippet: 'An example of what an alert looks like: PGlite runs Postgres in WebAssembly.',
        highlights: [[51, 57]],
        url: null,
        permalink: 'https://news.ycombinator.com/',
        author: 'earshot',
        community: null,
        itemCreatedAt: now,
      },
    ],
    total: 1,
    capReached: null,
    links: { alerts: links.alerts, settings: links.settings, unsubscribe: links.unsubscribePage },
  });
  const payload: EmailPayload = {
    to: user.email,
    subject: 'Earshot test email: this is how your alerts look',
    text: `This is a test email you asked for in Settings. Alerts look like this:\n\n${sample.text}`,
    html: sample.html,
    headers: unsubscribeHeaders(links),
  };
  const inserted = await ctx.db
    .insert(deliveryOutbox)
    .values({
      channel: 'email',
      purpose: 'test',
      userId,
      dedupeKey: `email:test:${userId}:${minute}`,
      payload,
      nextAttemptAt: now,
      createdAt: now,
    })
    .onConflictDoNothing({ target: deliveryOutbox.dedupeKey })
    .returning({ id: deliveryOutbox.id });
  if (inserted.length === 0) {
    throw new RateLimitedError(
      'A test email is already on its way. Try again in a minute.',
      60 - Math.floor((now.getTime() % 60_000) / 1000),
    );
  }
  return { queued: true, to: user.email };
}
