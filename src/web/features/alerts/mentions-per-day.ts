import type { MatchStats } from '../../../shared/match.ts';

/** One day of the chart: its date (YYYY-MM-DD) and each monitor's mentions that day. */
export type ChartDay = { date: string; counts: Record<string, number>; total: number };

/** The last `days` dates (YYYY-MM-DD) ending with `today`, oldest first. */
export function lastDays(today: string, days: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** Today's date (YYYY-MM-DD) in `timeZone`, the user's, as the stats count days. */
export function todayIn(timeZone: string, now = Date.now()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return new Date(now).toISOString().slice(0, 10);
  }
}

/**
 * The stats laid out for the chart: every one of the last `days` days (none missing, zero when
 * quiet), the monitors with a mention in them (in the order given), and the total.
 */
export function mentionsPerDay(
  stats: MatchStats,
  monitorIds: readonly string[],
  days: number,
  now = Date.now(),
  keyOf: (row: MatchStats['days'][number]) => string = (row) => row.monitorId,
): { days: ChartDay[]; monitorIds: string[]; total: number } {
  const dates = lastDays(todayIn(stats.timezone, now), days);
  const byDate = new Map<string, ChartDay>(
    dates.map((date) => [date, { date, counts: {}, total: 0 }]),
  );
  const mentioned = new Set<string>();
  for (const row of stats.days) {
    const day = byDate.get(row.date);
    if (!day || row.count === 0) continue;
    const key = keyOf(row);
    day.counts[key] = (day.counts[key] ?? 0) + row.count;
    day.total += row.count;
    mentioned.add(key);
  }
  const chartDays = [...byDate.values()];
  return {
    days: chartDays,
    monitorIds: monitorIds.filter((id) => mentioned.has(id)),
    total: chartDays.reduce((sum, day) => sum + day.total, 0),
  };
}

/** "24 Nov", "Tue 24 Nov": a chart date, read as a calendar day (no time zone shift). */
export function formatDay(date: string, withWeekday = false): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    ...(withWeekday ? { weekday: 'short' } : {}),
  }).format(new Date(`${date}T00:00:00Z`));
}
