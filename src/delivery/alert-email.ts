import { Fragment, type ReactElement, type ReactNode } from 'react';
import { html, renderHtmlDocument } from '../platform/html.ts';
import {
  type AlertEntry,
  describeAlsoOn,
  entryHeadline,
  groupAlertEntries,
} from '../shared/alert-entries.ts';
import { highlightSegments, type Segment } from '../shared/highlight-segments.ts';
import type { Match } from '../shared/match.ts';
import type { MatchGroup } from '../shared/match-groups.ts';
import { describeHitFields } from '../shared/match-view.ts';
import { formatCommunity, SOURCE_LABELS } from '../shared/sources.ts';

/**
 * The one alert email (docs/product.md, "Delivery"): a plain-text part and an HTML part, matches
 * grouped by monitor, at most `MAX_LISTED` entries listed, then "and N more" linking to the
 * dashboard.
 * Entries are `groupAlertEntries`': an item caught by several monitors is one entry, under the
 * first of them, naming them all; a thread's matches are one entry with its two best snippets and
 * a link to the thread; the same link from several sites is one entry saying where else it is.
 * The HTML has no remote images, scripts or trackers; it is one column that fits a phone, and
 * declares `color-scheme: light dark` with dark colours for clients that honour
 * `prefers-color-scheme`. Everything that comes from a post or a user is escaped.
 */

export const MAX_LISTED = 50;

export type EmailMonitor = { id: string; name: string; query: string };

export type AlertEmailInput = {
  timeZone: string;
  /** Every monitor with a match in this email, with how many matches the email covers for it. */
  monitors: readonly (EmailMonitor & { count: number })[];
  /** The matches covered, oldest first: grouped into entries, of which MAX_LISTED are shown. */
  listed: readonly Match[];
  /** Every match this email covers (listed or not). */
  total: number;
  /** Set when this email reaches the daily cap: later matches wait for the next email. */
  capReached: { cap: number; held: number } | null;
  /** How many of the matches covered were held over by an earlier day's cap (0: none). */
  heldOver?: number;
  links: {
    alerts: string;
    settings: string;
    unsubscribe: string;
    /** The signed one-click links rating a stored match (none for the sample email). */
    rate?: (matchId: string, rating: 'relevant' | 'irrelevant') => string;
  };
  /** The one-click mute links of an entry listed under a monitor (decision 0038); none if absent. */
  muteLinks?: (entry: AlertEntry, monitorId: string) => readonly MuteLink[];
};

export type MuteLink = { label: string; href: string };

export type RenderedEmail = { subject: string; text: string; html: string };

/** "pglite" for a monitor without a name, else its name. */
export function monitorLabel(monitor: EmailMonitor): string {
  return monitor.name.trim() || monitor.query;
}

export function alertSubject(
  total: number,
  monitors: readonly (EmailMonitor & { count: number })[],
): string {
  const labels = [...monitors]
    .sort((a, b) => b.count - a.count)
    .map((monitor) => `“${clip(monitorLabel(monitor), 60)}”`);
  const what = total === 1 ? '1 new mention' : `${total} new mentions`;
  if (labels.length <= 1) return `${what} of ${labels[0] ?? 'your monitors'}`;
  if (labels.length === 2) return `${what} of ${labels[0]} and ${labels[1]}`;
  const others = labels.length - 2;
  return `${what} of ${labels[0]}, ${labels[1]} and ${others} other monitor${others === 1 ? '' : 's'}`;
}

export function renderAlertEmail(input: AlertEmailInput): RenderedEmail {
  const subject = alertSubject(input.total, input.monitors);
  // Each item under the first of its monitors; a conversation within one monitor's section.
  const order = new Map(input.monitors.map((monitor, index) => [monitor.id, index]));
  const home = (item: MatchGroup) =>
    item.monitorIds.reduce((best, id) =>
      (order.get(id) ?? Infinity) < (order.get(best) ?? Infinity) ? id : best,
    );
  const entries = groupAlertEntries(input.listed, { partition: home }).slice(0, MAX_LISTED);
  const groups = groupByMonitor(input, entries);
  const more = input.total - entries.reduce((sum, entry) => sum + entry.matches.length, 0);
  return {
    subject,
    text: renderText(input, subject, groups, more),
    html: renderHtml(input, subject, groups, more),
  };
}

/** An entry of the email, and the monitors that caught it. */
type Entry = { entry: AlertEntry; caughtBy: EmailMonitor[] };
type Group = { monitor: EmailMonitor & { count: number }; entries: Entry[] };

function groupByMonitor(input: AlertEmailInput, entries: readonly AlertEntry[]): Group[] {
  const groups = new Map<string, Group>();
  for (const monitor of input.monitors) groups.set(monitor.id, { monitor, entries: [] });
  for (const entry of entries) {
    const ids = new Set(entry.items.flatMap((item) => item.monitorIds));
    const caughtBy = input.monitors.filter((monitor) => ids.has(monitor.id));
    const home = [...groups.values()].find((group) => ids.has(group.monitor.id));
    home?.entries.push({ entry, caughtBy });
  }
  return [...groups.values()].filter((group) => group.entries.length > 0);
}

function describeWhere(match: Match): string {
  const source = SOURCE_LABELS[match.source];
  const where = match.community
    ? `${source} · ${formatCommunity(match.source, match.community)}`
    : source;
  return match.kind === 'comment' ? `${where} · comment` : where;
}

/** "Caught by “a” and “b”" when more than one monitor caught the item; null otherwise. */
function describeCaughtBy(monitors: readonly EmailMonitor[]): string | null {
  if (monitors.length < 2) return null;
  const labels = monitors.map((monitor) => `“${monitorLabel(monitor)}”`);
  const last = labels.pop();
  return `Caught by ${labels.join(', ')} and ${last}`;
}

/** The meta line of an entry: site, author, time, where the terms hit. */
function describeEntry(item: MatchGroup, timeZone: string, author: (name: string) => string) {
  const match = item.match;
  const hits = describeHitFields(item.hitFields);
  return [
    describeWhere(match),
    match.author ? author(match.author) : null,
    formatTime(new Date(match.itemCreatedAt), timeZone),
    hits ? `hit ${hits}` : null,
  ].filter((part) => part !== null);
}

/** The headline of an entry, cut at its hits. */
function headlineSegments(entry: AlertEntry): Segment[] {
  const headline = entryHeadline(entry);
  const highlights =
    entry.lead.match.title && headline.highlights.length > 0
      ? entry.lead.titleHighlights
      : headline.highlights;
  return highlightSegments(headline.text, highlights);
}

/** An item's snippet, cut at its hits. */
const snippetSegments = (item: MatchGroup): Segment[] =>
  highlightSegments(item.snippet, item.highlights);

/**
 * The snippets an entry shows: a lone item's own; a conversation's two best, each with its
 * author and its link.
 */
function shownSnippets(entry: AlertEntry): MatchGroup[] {
  if (!entry.thread) return entry.lead.snippet ? [entry.lead] : [];
  return [...entry.best];
}

/** The meta line of a conversation: its site, how many matches, the thread's time span. */
function describeConversation(entry: AlertEntry, timeZone: string): string[] {
  const lead = entry.lead.match;
  const items = entry.items.length;
  return [
    describeWhere({ ...lead, kind: 'post' }),
    `${items} matches`,
    formatTime(new Date(lead.itemCreatedAt), timeZone),
  ];
}

function formatTime(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(date);
}

function renderText(input: AlertEmailInput, subject: string, groups: Group[], more: number) {
  const lines: string[] = [subject, ''];
  if (input.heldOver) lines.push(heldNotice(input.heldOver), '');
  for (const group of groups) {
    const count = group.monitor.count;
    lines.push(
      `== ${monitorLabel(group.monitor)} (${count} new) ==`,
      `   Query: ${group.monitor.query}`,
      `   All its matches: ${monitorAlertsUrl(input.links.alerts, group.monitor.id)}`,
      '',
    );
    for (const { entry, caughtBy } of group.entries) {
      const match = entry.lead.match;
      const single = entry.thread === null;
      lines.push(`* ${oneLine(starred(headlineSegments(entry)))}`);
      // Every part of a post is one line here, its author's name too: a line break in it would
      // start a line that reads as part of the email.
      const meta = single
        ? describeEntry(entry.lead, input.timeZone, (name) => name)
        : describeConversation(entry, input.timeZone);
      lines.push(`  ${oneLine(meta.join(' · '))}`);
      const caught = describeCaughtBy(caughtBy);
      if (caught) lines.push(`  ${oneLine(caught)}`);
      for (const item of shownSnippets(entry)) {
        const by = !single && item.match.author ? ` (${item.match.author})` : '';
        lines.push(`  ${oneLine(`${starred(snippetSegments(item))}${by}`)}`);
        if (!single) lines.push(`    ${item.match.permalink}`);
      }
      lines.push(`  ${entry.thread ? `Thread: ${entry.thread.permalink}` : match.permalink}`);
      if (match.url && match.url !== match.permalink) lines.push(`  Link: ${match.url}`);
      const also = describeAlsoOn(entry.alsoOn);
      if (also) {
        lines.push(`  ${oneLine(`${also[0]?.toUpperCase()}${also.slice(1)}`)}`);
        for (const other of entry.alsoOn) lines.push(`    ${other.permalink}`);
      }
      const rate = input.links.rate;
      if (rate) {
        lines.push(
          `  Relevant: ${rate(match.id, 'relevant')}`,
          `  Not relevant: ${rate(match.id, 'irrelevant')}`,
        );
      }
      for (const mute of input.muteLinks?.(entry, group.monitor.id) ?? []) {
        lines.push(`  ${oneLine(mute.label)}: ${mute.href}`);
      }
      lines.push('');
    }
  }
  if (more > 0) lines.push(`…and ${more} more: ${input.links.alerts}`, '');
  if (input.capReached) lines.push(capNotice(input.capReached), '');
  lines.push(
    `See every match: ${input.links.alerts}`,
    '',
    '--',
    'You get this email because you set up monitors on Earshot.',
    `Change how often: ${input.links.settings}`,
    `Unsubscribe from alert emails: ${input.links.unsubscribe}`,
    '',
  );
  return lines.join('\n');
}

function capNotice(cap: { cap: number; held: number }): string {
  const held =
    cap.held > 0
      ? ` ${cap.held} more ${cap.held === 1 ? 'is' : 'are'} held for tomorrow's first email`
      : ' Later matches today wait for tomorrow’s first email';
  return `You reached today's limit of ${cap.cap} matches by email.${held}; none is lost, and all are in your dashboard now. A narrower query keeps the emails useful.`;
}

function heldNotice(count: number): string {
  return `This email carries ${count} ${count === 1 ? 'match' : 'matches'} held over from an earlier day's limit.`;
}

/** Text with its hits wrapped in *stars*, for the plain-text part. */
function starred(segments: readonly Segment[]): string {
  return segments.map((part) => (part.hit ? `*${part.text}*` : part.text)).join('');
}

/** Text with its hits in `<mark>`, for the HTML part. */
function marked(segments: readonly Segment[]): ReactNode[] {
  return segments.map((part, i) =>
    part.hit ? html`<mark key=${i}>${part.text}</mark>` : part.text,
  );
}

/** Parts with a separator between each two (`· ` with no-break spaces, as a line of links). */
function joined(parts: readonly ReactNode[], separator = ' \u00a0·\u00a0 '): ReactNode[] {
  return parts.flatMap((part, i) => (i === 0 ? [part] : [separator, part]));
}

/** The Alerts page filtered to one monitor (an empty id: every match). */
export function monitorAlertsUrl(alerts: string, monitorId: string): string {
  return monitorId ? `${alerts}?monitor=${encodeURIComponent(monitorId)}` : alerts;
}

/** Whitespace runs, line breaks of every kind included (NEL too, which `\s` leaves out), as one space. */
function oneLine(value: string): string {
  return value.replace(/[\s\u0085]+/gu, ' ').trim();
}

function clip(value: string, length: number): string {
  return value.length > length ? `${value.slice(0, length - 1)}…` : value;
}

/** Only http(s) links from a post reach an href; anything else (javascript:, data:) is dropped. */
function safeHref(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

const STYLE = `
:root{color-scheme:light dark;supported-color-schemes:light dark}
body{margin:0;padding:0;background:#f4f5f7;color:#111827;font-family:-apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,Helvetica,Arial,sans-serif;-webkit-text-size-adjust:100%}
a{color:#2563eb}
.wrap{max-width:640px;margin:0 auto;padding:24px 12px}
.card{background:#ffffff;border:1px solid #e5e7eb;border-radius:12px;padding:20px}
.brand{font-size:13px;font-weight:700;letter-spacing:.04em;color:#6b7280;text-transform:uppercase;margin:0 0 8px}
h1{font-size:20px;line-height:1.3;margin:0 0 4px}
h2{font-size:16px;margin:24px 0 2px}
.query{font-size:12px;color:#6b7280;margin:0 0 8px;font-family:ui-monospace,Menlo,Consolas,monospace}
.match{border-top:1px solid #e5e7eb;padding:12px 0}
.title{font-size:15px;font-weight:600;line-height:1.35;margin:0 0 4px;word-break:break-word}
.title a,h2 a.group{color:#111827;text-decoration:none}
.meta{font-size:12px;color:#6b7280;margin:0 0 6px}
.snippet{font-size:14px;line-height:1.5;margin:0 0 6px;color:#374151;word-break:break-word}
mark{background:#fde68a;color:#111827;padding:0 1px;border-radius:2px}
.links{font-size:13px;margin:0}
.mutes{font-size:12px;margin:4px 0 0}
.mutes a{color:#6b7280}
.more{font-size:14px;margin:16px 0 0}
.notice{font-size:14px;margin:16px 0 0;padding:12px;border-radius:8px;background:#fef3c7;color:#78350f}
.button{display:inline-block;margin-top:20px;padding:10px 16px;border-radius:8px;background:#2563eb;color:#ffffff !important;text-decoration:none;font-weight:600;font-size:14px}
.foot{font-size:12px;color:#6b7280;line-height:1.6;margin:16px 4px 0}
.foot a{color:#6b7280}
@media (prefers-color-scheme: dark){
body{background:#0b0f17 !important;color:#e5e7eb !important}
.card{background:#151b26 !important;border-color:#273042 !important}
.match{border-color:#273042 !important}
.title a,h2 a.group{color:#f3f4f6 !important}
.snippet{color:#d1d5db !important}
.meta,.query,.brand,.foot,.foot a{color:#9ca3af !important}
a{color:#7aa2ff !important}
mark{background:#854d0e !important;color:#fef9c3 !important}
.notice{background:#422006 !important;color:#fde68a !important}
.button{background:#3b82f6 !important;color:#ffffff !important}
}
@media (max-width:480px){.wrap{padding:12px 6px}.card{padding:14px;border-radius:8px}h1{font-size:18px}}
`;

function renderHtmlEntry(
  input: AlertEmailInput,
  entry: AlertEntry,
  caughtBy: EmailMonitor[],
  monitorId: string,
): ReactElement {
  const match = entry.lead.match;
  const single = entry.thread === null;
  const permalink = safeHref(entry.thread ? entry.thread.permalink : match.permalink);
  const link = safeHref(match.url);
  const headline = marked(headlineSegments(entry));
  const meta = single
    ? describeEntry(entry.lead, input.timeZone, (name) => `by ${name}`)
    : describeConversation(entry, input.timeZone);
  const caught = describeCaughtBy(caughtBy);
  const snippets = shownSnippets(entry).map((item, i) => {
    const href = safeHref(item.match.permalink);
    const by = item.match.author ? ` — ${item.match.author}` : '';
    const tail = single
      ? ''
      : href
        ? [' ', html`<a key="open" href=${href}>${by || ' — open'}</a>`]
        : by;
    return html`<p key=${i} className="snippet">${marked(snippetSegments(item))}${tail}</p>`;
  });
  const also = describeAlsoOn(entry.alsoOn);
  const alsoLinks = entry.alsoOn.map((other, i) => {
    const href = safeHref(other.permalink);
    const label = other.community
      ? `${SOURCE_LABELS[other.source]} (${formatCommunity(other.source, other.community)})`
      : SOURCE_LABELS[other.source];
    return href ? html`<a key=${i} href=${href}>${label}</a>` : label;
  });
  const rate = input.links.rate;
  const links = [
    permalink &&
      html`<a key="open" href=${permalink}>${entry.thread ? 'Open the thread' : `Open on ${SOURCE_LABELS[match.source]}`}</a>`,
    link && link !== permalink && html`<a key="link" href=${link}>Linked page</a>`,
    html`<a key="in" href=${monitorAlertsUrl(input.links.alerts, match.monitorId)}>In Earshot</a>`,
    rate && html`<a key="yes" href=${rate(match.id, 'relevant')}>Relevant</a>`,
    rate && html`<a key="no" href=${rate(match.id, 'irrelevant')}>Not relevant</a>`,
  ].filter(Boolean);
  const mutes = (input.muteLinks?.(entry, monitorId) ?? []).map(
    (mute, i) => html`<a key=${i} href=${mute.href}>${mute.label}</a>`,
  );
  // Keyed by its lead match, which no other entry has: the entries are a list.
  return html`<div key=${match.id} className="match">
    <p className="title">${permalink ? html`<a href=${permalink}>${headline}</a>` : headline}</p>
    <p className="meta">${meta.join(' · ')}</p>
    ${caught && html`<p className="meta">${caught}</p>`}
    ${snippets}
    ${also && html`<p className="meta">Also on ${joined(alsoLinks, ', ')}</p>`}
    <p className="links">${joined(links)}</p>
    ${mutes.length > 0 && html`<p className="mutes">${joined(mutes)}</p>`}
  </div>`;
}

function renderHtml(input: AlertEmailInput, subject: string, groups: Group[], more: number) {
  const sections = groups.map(
    (group) => html`<${Fragment} key=${group.monitor.id}>
      <h2>
        <a className="group" href=${monitorAlertsUrl(input.links.alerts, group.monitor.id)}>${monitorLabel(group.monitor)}</a>
        ${' '}<span className="meta">· ${group.monitor.count} new</span>
      </h2>
      <p className="query">${group.monitor.query}</p>
      ${group.entries.map(({ entry, caughtBy }) => renderHtmlEntry(input, entry, caughtBy, group.monitor.id))}
    <//>`,
  );
  return renderHtmlDocument(html`<html lang="en">
    <head>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta name="color-scheme" content="light dark" />
      <meta name="supported-color-schemes" content="light dark" />
      <title>${subject}</title>
      <style dangerouslySetInnerHTML=${{ __html: STYLE }} />
    </head>
    <body>
      <div className="wrap">
        <div className="card">
          <p className="brand">Earshot</p>
          <h1>${subject}</h1>
          ${input.heldOver ? html`<p className="notice">${heldNotice(input.heldOver)}</p>` : null}
          ${sections}
          ${more > 0 && html`<p className="more"><a href=${input.links.alerts}>…and ${more} more in your dashboard</a></p>`}
          ${input.capReached && html`<p className="notice">${capNotice(input.capReached)}</p>`}
          <a className="button" href=${input.links.alerts}>See all matches</a>
        </div>
        <p className="foot">
          You get this email because you set up monitors on Earshot.${' '}
          <a href=${input.links.settings}>Change how often</a> · <a href=${input.links.unsubscribe}>Unsubscribe from alert emails</a>
        </p>
      </div>
    </body>
  </html>`);
}
