import { createHmac } from 'node:crypto';
import type { WebhookKind } from '../../db/schema/delivery.ts';
import {
  type AlertEntry,
  describeAlsoOn,
  entryHeadline,
  groupAlertEntries,
} from '../../shared/alert-entries.ts';
import { highlightSegments } from '../../shared/highlight-segments.ts';
import type { Match } from '../../shared/match.ts';
import { describeHitFields } from '../../shared/match-view.ts';
import { formatCommunity, SOURCE_LABELS } from '../../shared/sources.ts';
import { alertSubject, type EmailMonitor, monitorLabel } from '../alert-email.ts';

/**
 * The body of a webhook call per kind (docs/webhooks.md): Slack's incoming-webhook payload,
 * Discord's webhook payload, or Earshot's own signed JSON (version 2: `{ version, monitor,
 * matches, entries }`, matches as the API returns them, entries as `groupAlertEntries` makes
 * them: one per conversation and per link, with `thread` and `alsoOn`). One call carries at most
 * `ENTRIES_PER_CALL[kind]` entries (Slack allows 50 blocks, Discord 10 embeds); a bigger batch
 * is several calls.
 */
export const ENTRIES_PER_CALL: Record<WebhookKind, number> = { slack: 20, discord: 10, json: 50 };

/** The version of the `json` body's shape; docs/webhooks.md lists what each changed. */
export const JSON_PAYLOAD_VERSION = 2;

export type WebhookBatch = {
  monitor: EmailMonitor;
  /** The call's entries (`groupAlertEntries` of its matches), in order. */
  entries: readonly AlertEntry[];
  /** Links back into Earshot. */
  alertsUrl: string;
  /** Set when this batch reaches the daily cap. */
  notice: string | null;
  /**
   * The signed one-click links rating an entry's lead match (docs/product.md, "Relevance"), shown
   * in Slack and Discord messages; none for the test call.
   */
  rate?: (matchId: string, rating: 'relevant' | 'irrelevant') => string;
};

export function buildWebhookBody(kind: WebhookKind, batch: WebhookBatch): string {
  switch (kind) {
    case 'slack':
      return JSON.stringify(slackBody(batch));
    case 'discord':
      return JSON.stringify(discordBody(batch));
    case 'json':
      return JSON.stringify({
        version: JSON_PAYLOAD_VERSION,
        monitor: { id: batch.monitor.id, name: batch.monitor.name, query: batch.monitor.query },
        matches: batch.entries.flatMap((entry) => entry.matches),
        entries: batch.entries.map(jsonEntry),
        ...(batch.notice ? { notice: batch.notice } : {}),
      });
  }
}

/** Splits a batch's matches into calls of at most `ENTRIES_PER_CALL[kind]` entries each. */
export function chunkEntries(kind: WebhookKind, matches: readonly Match[]): AlertEntry[][] {
  const entries = groupAlertEntries(matches);
  const size = ENTRIES_PER_CALL[kind];
  const chunks: AlertEntry[][] = [];
  for (let start = 0; start < entries.length; start += size) {
    chunks.push(entries.slice(start, start + size));
  }
  return chunks;
}

/** An entry of the `json` body (docs/webhooks.md, "Entries"). */
function jsonEntry(entry: AlertEntry) {
  return {
    headline: entryHeadline(entry).text,
    lead: entry.lead.match.id,
    matchIds: entry.matches.map((match) => match.id),
    best: entry.best.map((item) => item.match.id),
    thread: entry.thread,
    alsoOn: entry.alsoOn,
  };
}

function summary(batch: WebhookBatch): string {
  const count = batch.entries.reduce((sum, entry) => sum + entry.matches.length, 0);
  return alertSubject(count, [{ ...batch.monitor, count }]);
}

/** What a chat message shows of an entry: its lead, or its best snippet for a conversation. */
function shown(entry: AlertEntry): Match {
  return (entry.thread ? entry.best[0] : undefined)?.match ?? entry.lead.match;
}

/** The link of an entry: the thread for a conversation, else the item. */
const entryLink = (entry: AlertEntry): string =>
  entry.thread?.permalink ?? entry.lead.match.permalink;

/** The meta line of an entry: its place, author and hits; "also on …" when elsewhere too. */
function entryWhere(entry: AlertEntry): string {
  const also = describeAlsoOn(entry.alsoOn);
  const count = entry.thread ? `${entry.items.length} matches` : null;
  return [where(shown(entry)), count, also].filter(Boolean).join(' · ');
}

function where(match: Match): string {
  const source = SOURCE_LABELS[match.source];
  const place = match.community
    ? `${source} · ${formatCommunity(match.source, match.community)}`
    : source;
  const hits = describeHitFields(match.hitFields);
  return [place, match.author, hits ? `hit ${hits}` : null].filter(Boolean).join(' · ');
}

/** The entry's headline: a post's title, "on: …", or "12 new comments in …". */
function headline(entry: AlertEntry): string {
  return entryHeadline(entry).text;
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
  for (const entry of batch.entries) {
    const match = shown(entry);
    const title = slackEscape(headline(entry).replace(/\s+/g, ' ')).replaceAll('|', '¦');
    const snippet = marked(match, slackEscape, (hit) => `*${slackEscape(hit)}*`);
    blocks.push({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text:
          `<${entryLink(entry)}|${title}>\n_${slackEscape(entryWhere(entry))}_${snippet ? `\n>${snippet.replace(/\n/g, ' ')}` : ''}`.slice(
            0,
            2700,
          ) + slackRating(batch, entry),
      },
    });
  }
  const footer = batch.notice
    ? `${slackEscape(batch.notice)} · <${batch.alertsUrl}|Open Earshot>`
    : `<${batch.alertsUrl}|See every match in Earshot> · ${slackEscape(monitorLabel(batch.monitor))}`;
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: footer }] });
  return { text, blocks, unfurl_links: false, unfurl_media: false };
}

/** The rating links of an entry in Slack mrkdwn, on a line of their own; '' without `rate`. */
function slackRating(batch: WebhookBatch, entry: AlertEntry): string {
  if (!batch.rate) return '';
  const id = entry.lead.match.id;
  return `\n<${batch.rate(id, 'relevant')}|Relevant> · <${batch.rate(id, 'irrelevant')}|Not relevant>`;
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
    embeds: batch.entries.map((entry) => {
      const match = shown(entry);
      return {
        title: headline(entry).replace(/\s+/g, ' ').slice(0, 256),
        url: entryLink(entry),
        // Discord refuses an empty description: a post of a title alone has none.
        ...(match.snippet
          ? {
              description: marked(match, discordEscape, (hit) => `**${discordEscape(hit)}**`).slice(
                0,
                4000,
              ),
            }
          : {}),
        ...(batch.rate
          ? {
              fields: [
                {
                  name: 'Relevant?',
                  value: `[Relevant](${batch.rate(entry.lead.match.id, 'relevant')}) · [Not relevant](${batch.rate(entry.lead.match.id, 'irrelevant')})`,
                  inline: false,
                },
              ],
            }
          : {}),
        footer: { text: entryWhere(entry).slice(0, 2048) },
        timestamp: match.itemCreatedAt,
      };
    }),
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
