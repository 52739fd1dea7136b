import { Lightbulb } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../components/ui/button.tsx';
import { describeApiError } from '../../lib/api.ts';
import {
  type MonitorCoach,
  useMonitorCoachQuery,
  useUpdateMonitorMutation,
} from './monitors-api.ts';

/**
 * What a relevance threshold would do on the monitor's rated alerts: how many of those rated
 * relevant it keeps and of those rated not relevant it drops (`threshold` 0–1, null: off).
 */
export function ThresholdEffect({
  coach,
  threshold,
}: {
  coach: MonitorCoach | undefined;
  threshold: number | null;
}) {
  if (!coach || coach.scores.length === 0) {
    return (
      <p className="text-xs text-muted-foreground" data-testid="threshold-effect">
        Rate a few of this monitor’s alerts (thumbs up or down) to see what a threshold would keep.
      </p>
    );
  }
  const kept = (rating: 'relevant' | 'irrelevant') =>
    coach.scores.filter(
      (s) => s.rating === rating && (threshold === null || (s.relevance ?? 1) >= threshold),
    ).length;
  const relevant = coach.rated.relevant;
  const irrelevant = coach.rated.irrelevant;
  return (
    <p className="text-xs text-muted-foreground" role="status" data-testid="threshold-effect">
      Of your rated alerts, this keeps {kept('relevant')} of {relevant} relevant and drops{' '}
      {irrelevant - kept('irrelevant')} of {irrelevant} not relevant.
    </p>
  );
}

/**
 * The query coach on a monitor: changes that leave out what its "not relevant" alerts share,
 * each with what it would have removed of the stored alerts; Apply saves the new query at once.
 */
export function QueryCoach({
  monitorId,
  onApplied,
}: {
  monitorId: string;
  onApplied: (query: string) => void;
}) {
  const coach = useMonitorCoachQuery(monitorId, { refetchOnMountOrArgChange: true });
  const [update, updating] = useUpdateMonitorMutation();
  const suggestions = coach.data?.suggestions ?? [];
  if (suggestions.length === 0) return null;
  async function apply(query: string) {
    const result = await update({ id: monitorId, changes: { query } });
    if ('error' in result && result.error) {
      toast.error(describeApiError(result.error));
      return;
    }
    toast.success('Query updated');
    onApplied(query);
  }
  return (
    <section aria-label="Query coach" className="grid gap-2 rounded-lg border p-4">
      <h3 className="flex items-center gap-2 text-sm font-medium">
        <Lightbulb className="size-4" aria-hidden="true" /> Query coach
      </h3>
      <ul className="grid gap-2" data-testid="coach-suggestions">
        {suggestions.map((s) => (
          <li key={s.change} className="flex flex-wrap items-center justify-between gap-2 text-sm">
            <span className="min-w-0">
              Add <code className="rounded bg-muted px-1 font-mono">{s.change}</code>:{' '}
              <span className="text-muted-foreground">{s.summary}</span>
            </span>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={updating.isLoading}
              onClick={() => void apply(s.query)}
              aria-label={`Apply ${s.change}`}
            >
              Apply
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
