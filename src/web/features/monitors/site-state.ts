import type { MonitorPreview } from '../../../shared/monitor.ts';
import type { SourceHealth } from '../../../shared/source-health.ts';
import { SOURCE_LABELS, type SourceName } from '../../../shared/sources.ts';

/** How a site is doing, for the monitor form: a few words, and whether to say how to set it up. */
export type SiteState = {
  tone: 'ok' | 'warning' | 'failing' | 'off';
  text: string;
  /** The last fault in one line, when failing. */
  detail: string | null;
  /** Not configured: the form links to how to set it up. */
  needsSetUp: boolean;
};

type Clock = { now: number; timeZone?: string | undefined };

/** "14:02" today, "3 Mar, 14:02" before. */
export function formatSince(iso: string, { now, timeZone }: Clock): string {
  const at = new Date(iso);
  const day = (time: Date | number) =>
    new Intl.DateTimeFormat('en-CA', { timeZone, dateStyle: 'short' }).format(time);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    ...(day(at) === day(now) ? {} : { day: 'numeric', month: 'short' }),
  });
  return time.format(at);
}

/**
 * A site's state as GET /api/health reports it: working (perhaps behind), starting, failing
 * since its last success, or not configured.
 */
export function describeSiteState(health: SourceHealth, clock: Clock): SiteState {
  switch (health.state) {
    case 'ok':
      return { tone: 'ok', text: 'working', detail: null, needsSetUp: false };
    case 'lagging':
      return health.lastSuccessAt === null
        ? { tone: 'warning', text: 'starting', detail: null, needsSetUp: false }
        : { tone: 'warning', text: 'working, behind', detail: null, needsSetUp: false };
    case 'failing':
      return {
        tone: 'failing',
        text:
          health.lastSuccessAt === null
            ? 'failing, not reached yet'
            : `failing since ${formatSince(health.lastSuccessAt, clock)}`,
        detail: health.lastError,
        needsSetUp: false,
      };
    case 'not_configured':
      return { tone: 'off', text: 'not configured', detail: null, needsSetUp: true };
  }
}

/**
 * What the preview misses: one sentence per chosen site that is not configured or failing
 * ("Reddit is not configured: …"), none when every chosen site works.
 */
export function describeMissingSites(
  chosen: readonly SourceName[],
  health: readonly SourceHealth[],
  clock: Clock,
): string[] {
  const notes: string[] = [];
  for (const source of chosen) {
    const site = health.find((entry) => entry.source === source);
    if (!site) continue;
    const label = SOURCE_LABELS[source];
    if (site.state === 'not_configured') {
      notes.push(
        `${label} is not configured: nothing from it is in this preview, and the monitor hears nothing there until it is set up.`,
      );
    } else if (site.state === 'failing') {
      notes.push(
        `${label} is ${describeSiteState(site, clock).text}: its newest posts are missing here.`,
      );
    }
  }
  return notes;
}

/** "12 minutes", "3 hours", "7 days": how much data a forecast rests on. */
export function formatCoverage(hours: number): string {
  if (hours < 1) {
    const minutes = Math.max(1, Math.round(hours * 60));
    return `${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  }
  if (hours < 48) {
    const whole = Math.round(hours);
    return `${whole} ${whole === 1 ? 'hour' : 'hours'}`;
  }
  return `${Math.round(hours / 24)} days`;
}

/**
 * What the preview's forecast says: alerts a day and the data that rests on, or why there is no
 * forecast yet. Items from the last few minutes only (`coveredHours` rounds to 0) are still
 * items: "no posts read yet" is kept for a preview that found none.
 */
export function describeForecast({
  count,
  perDay,
  coveredHours,
}: Pick<MonitorPreview, 'count' | 'perDay' | 'coveredHours'>): string {
  if (coveredHours >= 1)
    return `about ${perDay.toLocaleString('en')} alerts a day, from ${formatCoverage(coveredHours)} of data`;
  if (coveredHours > 0)
    return `too soon to forecast a day: ${formatCoverage(coveredHours)} of data so far`;
  if (count > 0) return 'too soon to forecast a day: only posts from the last few minutes so far';
  return 'no posts read from these sites yet';
}
