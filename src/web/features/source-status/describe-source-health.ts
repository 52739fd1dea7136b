import type { SourceHealth } from '../../../shared/source-health.ts';
import { SOURCE_LABELS, sourceDescriptor } from '../../../shared/sources.ts';

/** "3 s", "4 min", "2 h": how far behind, short. */
export function formatBehind(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/**
 * More about a source, for its tooltip: the last fault, or for a site that lacks a credential the
 * one line that says how to give it one.
 */
export function describeSourceDetail(health: SourceHealth): string | undefined {
  if (health.state === 'not_configured') {
    const howTo = sourceDescriptor(health.source).howToConfigure;
    return howTo === null ? 'turned off by SOURCES' : `To turn it on, ${howTo}.`;
  }
  return health.lastError ?? undefined;
}

/**
 * One source in a few words: "Hacker News: live, 3 s behind", "Reddit: not configured";
 * a pushing site's queue ("Bluesky: live, 1 s behind, 40 queued") and what a source says of
 * itself ("Stack Overflow: live; requests running short: …") follow.
 */
export function describeSourceHealth(health: SourceHealth): string {
  const label = SOURCE_LABELS[health.source];
  const queued = health.queue && health.queue.depth > 0 ? `, ${health.queue.depth} queued` : '';
  const note = health.note ? `; ${health.note}` : '';
  switch (health.state) {
    case 'ok':
      return health.behindSeconds === null
        ? `${label}: live${queued}${note}`
        : `${label}: live, ${formatBehind(health.behindSeconds)} behind${queued}${note}`;
    case 'lagging':
      return health.lastSuccessAt === null
        ? `${label}: starting`
        : `${label}: lagging${health.behindSeconds === null ? '' : `, ${formatBehind(health.behindSeconds)} behind`}${queued}${note}`;
    case 'failing':
      return `${label}: failing, retrying`;
    case 'not_configured':
      return `${label}: not configured`;
  }
}
