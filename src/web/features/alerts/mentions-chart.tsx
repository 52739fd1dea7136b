import { AxisBottom, AxisLeft } from '@visx/axis';
import { localPoint } from '@visx/event';
import { Group } from '@visx/group';
import { useParentSize } from '@visx/responsive';
import { scaleBand, scaleLinear } from '@visx/scale';
import { BarStack } from '@visx/shape';
import { Tooltip, useTooltip } from '@visx/tooltip';
import { BarChart3 } from 'lucide-react';
import type { PointerEvent } from 'react';
import type { MatchStats } from '../../../shared/match.ts';
import type { Monitor } from '../../../shared/monitor.ts';
import { type ChartDay, formatDay, mentionsPerDay } from './mentions-per-day.ts';
import { Chip } from './signal-chips.tsx';

const COLOURS = [
  'var(--primary)',
  '#0ea5e9',
  '#f59e0b',
  '#10b981',
  '#ef4444',
  '#a855f7',
  '#64748b',
  '#ec4899',
];
const HEIGHT = 168;
const MARGIN = { top: 8, right: 4, bottom: 24, left: 32 };
/** Narrower than this a day's label would crowd its neighbours: every few days is labelled. */
const LABEL_WIDTH = 44;

type Hovered = { day: ChartDay; monitorId: string };

export type ChartSplit = 'monitor' | 'sentiment';

/** The tones of the split by sentiment, in stacking order; `none`: not read (not English). */
const TONES = ['negative', 'neutral', 'positive', 'none'];
const TONE_LABELS: Record<string, string> = {
  negative: 'Negative',
  neutral: 'Neutral',
  positive: 'Positive',
  none: 'No tone read',
};
const TONE_COLOURS: Record<string, string> = {
  negative: '#ef4444',
  neutral: '#64748b',
  positive: '#10b981',
  none: '#cbd5e1',
};

/**
 * Mentions per day (docs/product.md, "Matches and alerts"): one stacked bar a day, one colour
 * per monitor, a value axis, and a tooltip naming the day, the monitor and its count (visx,
 * docs/decisions/0023-mentions-chart-with-visx.md). The SVG is for sighted users; screen readers
 * get the same numbers as a table. A quiet fortnight says so in words.
 */
export function MentionsChart({
  stats,
  monitors,
  days,
  split = 'monitor',
  onSplit,
}: {
  stats: MatchStats;
  monitors: readonly Monitor[];
  days: number;
  /** One colour per monitor, or per tone (the matches' sentiment). */
  split?: ChartSplit;
  onSplit?: (split: ChartSplit) => void;
}) {
  const bySentiment = split === 'sentiment';
  const chart = bySentiment
    ? mentionsPerDay(stats, TONES, days, Date.now(), (row) => row.sentiment ?? 'none')
    : mentionsPerDay(
        stats,
        monitors.map((m) => m.id),
        days,
      );
  const nameOf = (id: string) => {
    if (bySentiment) return TONE_LABELS[id] ?? id;
    const monitor = monitors.find((m) => m.id === id);
    return monitor ? monitor.name || monitor.query : 'A deleted monitor';
  };
  const colourOf = bySentiment
    ? new Map(Object.entries(TONE_COLOURS))
    : new Map(monitors.map((m, i) => [m.id, COLOURS[i % COLOURS.length] as string]));

  return (
    <figure className="rounded-xl border bg-card p-4 shadow-sm sm:p-5" data-testid="mentions-chart">
      <figcaption className="flex flex-wrap items-baseline justify-between gap-2">
        <span className="text-sm font-semibold">Mentions per day</span>
        <div className="flex items-center gap-3 text-xs text-muted-foreground">
          {chart.total.toLocaleString('en')} in the last {days} days
          {onSplit ? (
            <fieldset className="flex gap-1">
              <legend className="sr-only">Colour the bars by</legend>
              {(['monitor', 'sentiment'] as const).map((option) => (
                <Chip key={option} quiet pressed={split === option} onClick={() => onSplit(option)}>
                  {option === 'monitor' ? 'By monitor' : 'By tone'}
                </Chip>
              ))}
            </fieldset>
          ) : null}
        </div>
      </figcaption>
      {chart.total === 0 ? (
        <div
          className="mt-3 flex items-center gap-3 rounded-lg border border-dashed px-4 py-6 text-sm text-muted-foreground"
          data-testid="mentions-chart-empty"
        >
          <BarChart3 className="size-5 shrink-0" aria-hidden="true" />
          <p>
            No mentions in the last {days} days. Each day’s count per monitor shows here once your
            monitors catch something.
          </p>
        </div>
      ) : (
        <>
          <Bars chart={chart} colourOf={colourOf} nameOf={nameOf} />
          <ul className="mt-3 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-hidden="true">
            {chart.monitorIds.map((id) => (
              <li key={id} className="flex min-w-0 items-center gap-1.5">
                <span
                  className="size-2.5 shrink-0 rounded-sm"
                  style={{ background: colourOf.get(id) ?? COLOURS[6] }}
                />
                <span className="truncate">{nameOf(id)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {/* A table's width never falls below its content's, so the wrapper, not the table, is
          the 1 px box that keeps it off screen without widening the page. */}
      <div className="sr-only">
        <table>
          <caption>
            Mentions per day and {bySentiment ? 'tone' : 'monitor'}, last {days} days
          </caption>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">{bySentiment ? 'Tone' : 'Monitor'}</th>
              <th scope="col">Mentions</th>
            </tr>
          </thead>
          <tbody>
            {chart.days.flatMap((day) =>
              Object.entries(day.counts).map(([id, count]) => (
                <tr key={`${day.date}-${id}`}>
                  <td>{day.date}</td>
                  <td>{nameOf(id)}</td>
                  <td>{count}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Bars({
  chart,
  colourOf,
  nameOf,
}: {
  chart: ReturnType<typeof mentionsPerDay>;
  colourOf: Map<string, string>;
  nameOf: (id: string) => string;
}) {
  const { parentRef, width } = useParentSize({ debounceTime: 50 });
  const tooltip = useTooltip<Hovered>();
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const dates = chart.days.map((day) => day.date);
  const xScale = scaleBand<string>({ domain: dates, range: [0, innerWidth], padding: 0.25 });
  const yScale = scaleLinear<number>({
    domain: [0, Math.max(1, ...chart.days.map((day) => day.total))],
    range: [innerHeight, 0],
    nice: true,
  });
  const every = Math.max(1, Math.ceil((LABEL_WIDTH * dates.length) / Math.max(1, innerWidth)));
  const labelled = dates.filter((_, i) => (dates.length - 1 - i) % every === 0);

  const show = (event: PointerEvent<SVGRectElement>, hovered: Hovered) => {
    const point = localPoint(event);
    tooltip.showTooltip({
      tooltipData: hovered,
      tooltipLeft: point?.x ?? 0,
      tooltipTop: point?.y ?? 0,
    });
  };

  return (
    <div ref={parentRef} className="relative mt-3 w-full" style={{ height: HEIGHT }}>
      {width > 0 ? (
        <svg width={width} height={HEIGHT} aria-hidden="true" className="block overflow-visible">
          <Group left={MARGIN.left} top={MARGIN.top}>
            <BarStack<ChartDay, string>
              data={chart.days}
              keys={chart.monitorIds}
              value={(day, key) => day.counts[key] ?? 0}
              x={(day) => day.date}
              xScale={xScale}
              yScale={yScale}
              color={(key) => colourOf.get(key) ?? (COLOURS[6] as string)}
            >
              {(stacks) =>
                stacks.flatMap((stack) =>
                  stack.bars
                    .filter((bar) => bar.height > 0)
                    .map((bar) => (
                      <rect
                        key={`${stack.key}-${bar.index}`}
                        x={bar.x}
                        y={bar.y}
                        width={bar.width}
                        height={bar.height}
                        fill={bar.color}
                        rx={2}
                        data-testid="mentions-bar"
                        onPointerMove={(event) =>
                          show(event, { day: bar.bar.data, monitorId: stack.key })
                        }
                        onPointerDown={(event) =>
                          show(event, { day: bar.bar.data, monitorId: stack.key })
                        }
                        onPointerLeave={tooltip.hideTooltip}
                      />
                    )),
                )
              }
            </BarStack>
            <AxisLeft
              scale={yScale}
              numTicks={3}
              tickFormat={(value) => Number(value).toLocaleString('en')}
              hideAxisLine
              hideTicks
              stroke="var(--border)"
              tickLabelProps={{
                fill: 'var(--muted-foreground)',
                fontSize: 10,
                textAnchor: 'end',
                dx: -4,
                dy: 3,
              }}
            />
            <AxisBottom
              top={innerHeight}
              scale={xScale}
              tickValues={labelled}
              tickFormat={(date) => formatDay(date)}
              hideTicks
              stroke="var(--border)"
              tickLabelProps={{
                fill: 'var(--muted-foreground)',
                fontSize: 10,
                textAnchor: 'middle',
              }}
            />
          </Group>
        </svg>
      ) : null}
      {tooltip.tooltipOpen && tooltip.tooltipData ? (
        <Tooltip
          unstyled
          applyPositionStyle
          left={Math.min(tooltip.tooltipLeft ?? 0, Math.max(0, width - 180))}
          top={(tooltip.tooltipTop ?? 0) + 12}
          className="pointer-events-none z-10 w-44 rounded-md border bg-card px-3 py-2 text-xs text-card-foreground shadow-md"
        >
          <p className="font-medium" data-testid="mentions-tooltip">
            {formatDay(tooltip.tooltipData.day.date, true)}
          </p>
          <p className="mt-1 flex items-center gap-1.5">
            <span
              className="size-2.5 shrink-0 rounded-sm"
              style={{ background: colourOf.get(tooltip.tooltipData.monitorId) }}
            />
            <span className="truncate">{nameOf(tooltip.tooltipData.monitorId)}</span>
            <span className="ml-auto font-semibold tabular-nums">
              {tooltip.tooltipData.day.counts[tooltip.tooltipData.monitorId] ?? 0}
            </span>
          </p>
          <p className="mt-0.5 text-muted-foreground">
            {tooltip.tooltipData.day.total.toLocaleString('en')} that day in all
          </p>
        </Tooltip>
      ) : null}
    </div>
  );
}
