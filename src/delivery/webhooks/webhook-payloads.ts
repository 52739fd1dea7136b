import { createHmac } from 'node:crypto';
import type { WebhookKind } from '../../db/schema/delivery.ts';
import type { Match } from '../../shared/match.ts';
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
  return match.author ? `${place} · ${match.author}` : place;
}

function headline(match: Match): string {
  return match.title ?? (match.kind === 'comment' ? 'A comment' : 'A post');
}

/** The snippet with each highlight passed through `mark`, the rest through `plain`. */
function marked(match: Match, plain: (s: string) => string, mark: (s: string) => string) {
  let out = '';
  let at = 0;
  for (const [start, end] of [...match.highlights].sort((a, b) => a[0] - b[0])) {
    if (start < at || end <= start || end > match.snippet.length) continue;
    out += plain(match.snippet.slice(at, start)) + mark(match.snippet.slice(start, end));
    at = end;
  }
  return out + plain(match.snippet.slice(at));
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
        text: `<${match.permalink}|${title}>\n_${slackEscape(where(match))}_\n>${snippet.replace(/\n/g, ' ')}`.slice(
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
      description: marked(match, discordEscape, (hit) => `**${discordEscape(hit)}**`).slice(
        0,
        4000,
      ),
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
