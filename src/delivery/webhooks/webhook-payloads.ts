import { createHmac } from 'node:crypto';
import type { WebhookKind } from '../../db/schema/delivery.ts';
import { highlightSegments } from '../../shared/highlight-segments.ts';
import type { Match } from '../../shared/match.ts';
import { describeHitFields, matchHeadline } from '../../shared/match-view.ts';
import { formatCommunity, SOURCE_LABELS } from '../../shared/sources.ts';
import { alertSubject, type EmailMonitor, monitorLabel } from '../alert-email.ts';

/**
 * The body of a webhook call per kind (docs/webhooks.md): Slack's incoming-webhook payload,
 * Discord's webhook payload, or Earshot's own signed JSON `{ monitor, matches }` with matches as
 * the API returns them. One call carries at most `MATCHES_PER_CALL[kind]` matches (Slack allows
 * 50 blocks, Discord 10 embeds); a bigger batch is several calls.
 */
export const MATCHES_PER_CALL: Record<WebhookKind, number> = { slack: 20, discord: 10, json: 50 };

export type WebhookBatch = {
  monitor: EmailMonitor;
  matches: readonly Match[];
  /** Links back into Earshot. */
  alertsUrl: string;
  /** Set when this batch reaches the daily cap. */
  notice: string | null;
};

export function buildWebhookBody(kind: WebhookKind, batch: WebhookBatch): string {
  switch (kind) {
    case 'slack':
      return JSON.stringify(slackBody(batch));
    case 'discord':
      return JSON.stringify(discordBody(batch));
    case 'json':
      return JSON.stringify({
        monitor: { id: batch.monitor.id, name: batch.monitor.name, query: batch.monitor.query },
        matches: batch.matches,
        ...(batch.notice ? { notice: batch.notice } : {}),
      });
  }
}

function summary(batch: WebhookBatch): string {
  return alertSubject(batch.matches.length, [{ ...batch.monitor, count: batch.matches.length }]);
}

function where(match: Match): string {
  const source = SOURCE_LABELS[match.source];
  const place = match.community
    ? `${source} · ${formatCommunity(match.source, match.community)}`
    : source;
  const hits = describeHitFields(match.hitFields);
  return [place, match.author, hits ? `hit ${hits}` : null].filter(Boolean).join(' · ');
}

/** The post's title, or the thread a comment belongs to ("on: …"). */
function headline(match: Match): string {
  return matchHeadline(match).text;
}

/** The snippet with each highlight passed through `mark`, the rest through `plain`. */
function marked(match: Match, plain: (s: string) => string, mark: (s: string) => string) {
  return highlightSegments(match.snippet, match.highlights)
    .map((part) => (part.hit ? mark(part.text) : plain(part.text)))
    .join('');
}

/** Slack mrkdwn: only &, < and > are special (https://api.slack.com/reference/surfaces/formatting). */
function slackEscape(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function slackBody(batch: WebhookBatch) {
  const text = summary(batch);
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${slackEscape(text)}*` } },
  ];
  for (const match of batch.matches) {
    const title = slackEscape(headline(match).replace(/\s+/g, ' ')).replaceAll('|', '¦');
    const snippet = marked(match, slackEscape, (hit) => `*${slackEscape(hit)}*`);
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: `<${match.permalink}|${title}>\n_${slackEscape(where(match))}_${snippet ? `\n>${snippet.replace(/\n/g, ' ')}` : ''}`.slice(
          0,
          3000,
        ),
      },
    });
  }
  const footer = batch.notice
    ? `${slackEscape(batch.notice)} · <${batch.alertsUrl}|Open Earshot>`
    : `<${batch.alertsUrl}|See every match in Earshot> · ${slackEscape(monitorLabel(batch.monitor))}`;
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: footer }] });
  return { text, blocks, unfurl_links: false, unfurl_media: false };
}

/** Discord markdown: a backslash before each special character shows it as it is. */
function discordEscape(value: string): string {
  return value.replace(/([\\*_~`|>#[\]()-])/g, '\\$1').replace(/@/g, '@\u200b');
}

function discordBody(batch: WebhookBatch) {
  return {
    username: 'Earshot',
    content: `${discordEscape(summary(batch))}${batch.notice ? `\n${discordEscape(batch.notice)}` : ''}`,
    // User text must never ping anyone.
    allowed_mentions: { parse: [] },
    embeds: batch.matches.map((match) => ({
      title: headline(match).replace(/\s+/g, ' ').slice(0, 256),
      url: match.permalink,
      // Discord refuses an empty description: a post of a title alone has none.
      ...(match.snippet
        ? {
            description: marked(match, discordEscape, (hit) => `**${discordEscape(hit)}**`).slice(
              0,
              4000,
            ),
          }
        : {}),
      footer: { text: where(match).slice(0, 2048) },
      timestamp: match.itemCreatedAt,
    })),
  };
}

/**
 * `Earshot-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * monitor's webhook secret (verification recipe: docs/webhooks.md).
 */
export function signatureHeader(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}
