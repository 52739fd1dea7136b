import { cn } from '../../lib/cn.ts';
import { useGetSourceHealthQuery } from '../../lib/source-health-api.ts';
import { describeSourceDetail, describeSourceHealth } from './describe-source-health.ts';

const REFRESH_MS = 15_000;

const DOT: Record<string, string> = {
  ok: 'bg-emerald-500',
  lagging: 'bg-amber-500',
  failing: 'bg-red-500',
  not_configured: 'bg-muted-foreground/40',
};

/**
 * Whether Earshot is still watching each site (docs/product.md, "Sources"): one short line per
 * source, refreshed every 15 s. The last fault is in the tooltip, as text.
 */
export function SourceStatusLine({ className }: { className?: string }) {
  const { data } = useGetSourceHealthQuery(undefined, { pollingInterval: REFRESH_MS });
  if (!data || data.length === 0) return null;
  return (
    <ul
      aria-label="Sources"
      data-testid="source-status"
      className={cn('flex flex-col gap-1 px-3 text-xs text-muted-foreground', className)}
    >
      {data.map((health) => (
        <li
          key={health.source}
          data-source={health.source}
          data-state={health.state}
          title={describeSourceDetail(health)}
          className="flex items-center gap-2"
        >
          <span
            aria-hidden="true"
            className={cn('size-1.5 shrink-0 rounded-full', DOT[health.state])}
          />
          {describeSourceHealth(health)}
        </li>
      ))}
    </ul>
  );
}
