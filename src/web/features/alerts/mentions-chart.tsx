import type { MatchStats } from '../../../shared/match.ts';
import type { Monitor } from '../../../shared/monitor.ts';

const COLOURS = [
  'var(--color-primary)',
  '#0ea5e9',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#a855f7',
  '#64748b',
  '#ec4899',
];

/** The last `days` dates (YYYY-MM-DD) ending with `today`, oldest first. */
function lastDays(today: string, days: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) =>
    new Date(end - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

function todayIn(timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
}

/**
 * Mentions per day, one stacked bar a day, one colour per monitor. The SVG is decoration for
 * sighted users; screen readers get the same numbers as a table.
 */
export function MentionsChart({
  stats,
  monitors,
  days,
}: {
  stats: MatchStats;
  monitors: readonly Monitor[];
  days: number;
}) {
  const dates = lastDays(todayIn(stats.timezone), days);
  const counts = new Map<string, Map<string, number>>();
  for (const row of stats.days) {
    const day = counts.get(row.date) ?? new Map<string, number>();
    day.set(row.monitorId, row.count);
    counts.set(row.date, day);
  }
  const shown = monitors.filter((m) => stats.days.some((row) => row.monitorId === m.id));
  const colourOf = new Map(monitors.map((m, i) => [m.id, COLOURS[i % COLOURS.length] as string]));
  const totals = dates.map((date) =>
    [...(counts.get(date)?.values() ?? [])].reduce((a, b) => a + b, 0),
  );
  const max = Math.max(1, ...totals);
  const total = totals.reduce((a, b) => a + b, 0);
  const width = 100 / dates.length;

  return (
    <figure className="rounded-xl border bg-card p-4 shadow-sm sm:p-5" data-testid="mentions-chart">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold">Mentions per day</span>
        <span className="text-xs text-muted-foreground">
          {total.toLocaleString('en')} in the last {days} days
        </span>
      </figcaption>
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        className="mt-3 h-24 w-full"
        aria-hidden="true"
      >
        {dates.map((date, i) => {
          let y = 40;
          return (
            <g key={date}>
              {shown.map((monitor) => {
                const count = counts.get(date)?.get(monitor.id) ?? 0;
                if (count === 0) return null;
                const height = (count / max) * 38;
                y -= height;
                return (
                  <rect
                    key={monitor.id}
                    x={i * width + width * 0.15}
                    y={y}
                    width={width * 0.7}
                    height={height}
                    fill={colourOf.get(monitor.id)}
                    rx={0.6}
                  />
                );
              })}
            </g>
          );
        })}
      </svg>
      <div
        className="mt-1 flex justify-between text-[10px] text-muted-foreground"
        aria-hidden="true"
      >
        <span>{dates[0]?.slice(5)}</span>
        <span>{dates.at(-1)?.slice(5)}</span>
      </div>
      {shown.length > 0 ? (
        <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-hidden="true">
          {shown.map((monitor) => (
            <li key={monitor.id} className="flex items-center gap-1.5">
              <span
                className="size-2.5 rounded-sm"
                style={{ background: colourOf.get(monitor.id) }}
              />
              {monitor.name || monitor.query}
            </li>
          ))}
        </ul>
      ) : null}
      <table className="sr-only">
        <caption>Mentions per day and monitor, last {days} days</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Monitor</th>
            <th scope="col">Mentions</th>
          </tr>
        </thead>
        <tbody>
          {stats.days.map((row) => (
            <tr key={`${row.date}-${row.monitorId}`}>
              <td>{row.date}</td>
              <td>
                {monitors.find((m) => m.id === row.monitorId)?.name ||
                  monitors.find((m) => m.id === row.monitorId)?.query ||
                  'A deleted monitor'}
              </td>
              <td>{row.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
