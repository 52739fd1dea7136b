import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import { rowsOf } from '../db/client.ts';
import { matches } from '../db/schema/matches.ts';
import { monitors } from '../db/schema/monitors.ts';
import { users } from '../db/schema/users.ts';
import { html, renderHtmlDocument } from '../platform/html.ts';
import { threadPermalink } from '../shared/alert-entries.ts';
import type { SourceName } from '../shared/sources.ts';
import { isTimeZone } from '../shared/user.ts';
import { monitorLabel } from './alert-email.ts';
import { type DeliveryContext, deliveryLinks, unsubscribeHeaders } from './delivery-context.ts';
import { queueMessage } from './outbox.ts';
import { localDay } from './schedule.ts';

/** A spike: today's mentions pass this many times the median of the days before… */
export const SPIKE_FACTOR = 3;
/** …and at least this many. */
export const SPIKE_MINIMUM = 10;
const HISTORY_DAYS = 14;

/** The median of the last `HISTORY_DAYS` days' counts, days without a mention counting 0. */
export function medianOf(counts: readonly number[]): number {
  const days = [...counts, ...Array(Math.max(0, HISTORY_DAYS - counts.length)).fill(0)]
    .slice(0, HISTORY_DAYS)
    .sort((a, b) => a - b);
  const middle = days.length / 2;
  return days.length % 2 === 0
    ? ((days[middle - 1] ?? 0) + (days[middle] ?? 0)) / 2
    : (days[Math.floor(middle)] ?? 0);
}

/** Whether today's count is a spike over the days before. */
export function isSpike(today: number, before: readonly number[]): boolean {
  return today >= SPIKE_MINIMUM && today > SPIKE_FACTOR * medianOf(before);
}

/**
 * Spike alerts (decision 0038): for each monitor with `spikeAlerts` whose owner gets email and
 * has not had one today (their local day), counts its matches per local day by the items' time;
 * when today's pass `SPIKE_FACTOR` × the median of the 14 days before and `SPIKE_MINIMUM`, queues
 * one email naming the top threads, and marks the day in the same transaction (the outbox key
 * is the monitor and the day, so deciding twice queues once).
 */
export async function decideSpikes(ctx: DeliveryContext): Promise<{ queued: number }> {
  const now = ctx.clock.now();
  const candidates = await ctx.db
    .select({
      id: monitors.id,
      name: monitors.name,
      query: monitors.query,
      userId: monitors.userId,
      notified: monitors.spikeNotifiedDay,
      email: users.email,
      timezone: users.timezone,
    })
    .from(monitors)
    .innerJoin(users, eq(users.id, monitors.userId))
    .where(
      and(
        eq(monitors.spikeAlerts, true),
        eq(monitors.paused, false),
        ne(users.emailAlerts, 'off'),
        ne(monitors.delivery, 'feed'),
      ),
    );
  let queued = 0;
  for (const monitor of candidates) {
    const timeZone = isTimeZone(monitor.timezone) ? monitor.timezone : 'UTC';
    const today = localDay(now, timeZone);
    if (monitor.notified === today) continue;
    const since = new Date(now.getTime() - (HISTORY_DAYS + 2) * 86_400_000);
    const perDay = rowsOf<{ day: string; n: number }>(
      await ctx.db.execute(sql`
        select to_char(${matches.itemCreatedAt} at time zone ${timeZone}, 'YYYY-MM-DD') as day,
          count(*)::int as n
        from ${matches}
        where ${matches.monitorId} = ${monitor.id} and ${matches.itemCreatedAt} >= ${since}
          and ${matches.itemCreatedAt} <= ${now}
        group by 1`),
    );
    const counts = new Map(perDay.map((row) => [row.day, Number(row.n)]));
    const todayCount = counts.get(today) ?? 0;
    const before: number[] = [];
    for (let back = 1; back <= HISTORY_DAYS; back++) {
      before.push(counts.get(localDay(new Date(now.getTime() - back * 86_400_000), timeZone)) ?? 0);
    }
    if (!isSpike(todayCount, before)) continue;
    const threads = rowsOf<{
      source: SourceName;
      thread: string;
      title: string | null;
      post: string | null;
      any: string;
      n: number;
    }>(
      await ctx.db.execute(sql`
        select source, coalesce(thread_id, external_id) as thread,
          coalesce(max(case when kind = 'post' then title end), max(thread_title)) as title,
          max(case when kind = 'post' then permalink end) as post,
          min(permalink) as any,
          count(*)::int as n
        from ${matches}
        where ${matches.monitorId} = ${monitor.id}
          and to_char(${matches.itemCreatedAt} at time zone ${timeZone}, 'YYYY-MM-DD') = ${today}
        group by 1, 2
        order by n desc, 2
        limit 3`),
    );
    // A thread is linked by its post, or by its page built from its id, or by one of its items.
    const top = threads.map((row) => ({
      title: row.title,
      permalink: row.post ?? threadPermalink(row.source, row.thread) ?? row.any,
      n: Number(row.n),
    }));
    const made = await ctx.db.transaction(async (tx) => {
      const [marked] = await tx
        .update(monitors)
        .set({ spikeNotifiedDay: today })
        .where(
          and(
            eq(monitors.id, monitor.id),
            or(isNull(monitors.spikeNotifiedDay), ne(monitors.spikeNotifiedDay, today)),
          ),
        )
        .returning({ id: monitors.id });
      if (!marked) return false;
      const links = deliveryLinks(ctx.config, ctx.tokens.sign(monitor.userId));
      const median = medianOf(before);
      const email = renderSpikeEmail({
        label: monitorLabel(monitor),
        today: todayCount,
        median,
        top,
        alerts: `${links.alerts}?monitor=${encodeURIComponent(monitor.id)}`,
        unsubscribe: links.unsubscribePage,
      });
      return queueMessage(
        tx,
        {
          channel: 'email',
          purpose: 'alert',
          userId: monitor.userId,
          about: `spike-${monitor.id}`,
          unique: today,
          payload: { to: monitor.email, ...email, headers: unsubscribeHeaders(links) },
        },
        now,
      );
    });
    if (made) queued++;
  }
  return { queued };
}

function renderSpikeEmail(input: {
  label: string;
  today: number;
  median: number;
  top: readonly { title: string | null; permalink: string; n: number }[];
  alerts: string;
  unsubscribe: string;
}) {
  const subject = `Spike: ${input.today} mentions of “${input.label}” today`;
  const usual = `usually ${input.median % 1 === 0 ? input.median : input.median.toFixed(1)} a day`;
  const lines = [
    subject,
    '',
    `${input.today} mentions today, ${usual} over the last 14 days. Where the talk is:`,
    '',
    ...input.top.flatMap((row) => [
      `* ${(row.title ?? 'A thread').replace(/[\s\u0085]+/gu, ' ')} (${row.n})`,
      `  ${row.permalink}`,
    ]),
    '',
    `See them all: ${input.alerts}`,
    '',
    '--',
    `Unsubscribe from alert emails: ${input.unsubscribe}`,
    '',
  ];
  const top = input.top.map((row, i) => {
    const title = row.title ?? 'A thread';
    const link = /^https?:\/\//.test(row.permalink)
      ? html`<a href=${row.permalink}>${title}</a>`
      : title;
    return html`<li key=${i}>${link} (${row.n})</li>`;
  });
  const body = renderHtmlDocument(html`<html lang="en">
    <head>
      <meta charSet="utf-8" />
      <title>${subject}</title>
    </head>
    <body>
      <h1>${subject}</h1>
      <p>${input.today} mentions today, ${usual} over the last 14 days. Where the talk is:</p>
      <ul>${top}</ul>
      <p><a href=${input.alerts}>See them all</a></p>
      <p><a href=${input.unsubscribe}>Unsubscribe from alert emails</a></p>
    </body>
  </html>`);
  return { subject, text: lines.join('\n'), html: body };
}
