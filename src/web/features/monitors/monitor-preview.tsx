import { AlertTriangle, Loader2 } from 'lucide-react';
import type { MonitorPreview } from '../../../shared/monitor.ts';
import type { SourceName } from '../../../shared/sources.ts';
import { SnippetText } from '../../components/snippet-text.tsx';
import { SourceIcon } from '../../components/source-badge.tsx';
import { describeApiError } from '../../lib/api.ts';
import { useGetSourceHealthQuery } from '../../lib/source-health-api.ts';
import { useNow } from '../../lib/use-now.ts';
import { describeForecast, describeMissingSites, formatCoverage } from './site-state.ts';
import type { QueryCheck } from './use-query-check.ts';

const SHOWN_ITEMS = 5;

/**
 * What the query would have found this week, how many alerts a day that makes and what that
 * rests on, and which of the chosen sites it cannot see (not configured, failing).
 */
export function MonitorPreviewPanel({
  query,
  sources,
  check,
}: {
  query: string;
  sources: readonly SourceName[];
  check: QueryCheck;
}) {
  const { preview, stale, problem, failed } = check;
  return (
    <section
      aria-label="Preview"
      aria-live="polite"
      className="rounded-lg border bg-background p-4"
      data-testid="monitor-preview"
    >
      {!query.trim() ? (
        <p className="text-sm text-muted-foreground">
          Type a query to see what it would have found this week.
        </p>
      ) : preview.isFetching || stale ? (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Looking through this week’s
          posts…
        </p>
      ) : problem ? (
        <p className="text-sm text-muted-foreground">Fix the query to see a preview.</p>
      ) : failed ? (
        <p className="text-sm text-destructive">{describeApiError(preview.error)}</p>
      ) : preview.data ? (
        <PreviewResult preview={preview.data} />
      ) : null}
      <MissingSites sources={sources} />
    </section>
  );
}

function PreviewResult({ preview }: { preview: MonitorPreview }) {
  const { count, basis, items } = preview;
  const forecast = describeForecast(preview);
  return (
    <>
      <p className="text-sm font-medium" data-testid="preview-summary">
        {basis ? 'About ' : ''}
        {count.toLocaleString('en')} {count === 1 ? 'match' : 'matches'} this week · {forecast}
      </p>
      {basis ? (
        <p className="mt-1 text-xs text-muted-foreground" data-testid="preview-estimate">
          Estimated: it matches so many posts that the preview read only the newest{' '}
          {basis.itemsExamined.toLocaleString('en')} (the last {formatCoverage(basis.hoursExamined)}
          ) and scaled what it found to the week. A narrower query gets an exact count.
        </p>
      ) : null}
      {items.length > 0 ? (
        <ul className="mt-3 grid grid-cols-1 gap-3">
          {items.slice(0, SHOWN_ITEMS).map((item) => (
            <li key={item.id} className="flex gap-2 text-sm">
              <SourceIcon source={item.source} className="mt-0.5 size-5" />
              <div className="min-w-0">
                <p className="truncate font-medium">{item.title ?? 'Comment'}</p>
                <p className="line-clamp-2 wrap-anywhere text-muted-foreground">
                  <SnippetText text={item.snippet} highlights={item.highlights} />
                </p>
              </div>
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-1 text-sm text-muted-foreground">
          Nothing this week. It keeps listening from the moment you save.
        </p>
      )}
    </>
  );
}

/** The chosen sites the preview (and the monitor, for now) cannot see, one note each. */
function MissingSites({ sources }: { sources: readonly SourceName[] }) {
  const { data: health } = useGetSourceHealthQuery();
  const now = useNow();
  const notes = describeMissingSites(sources, health ?? [], { now });
  if (notes.length === 0) return null;
  return (
    <ul className="mt-3 grid grid-cols-1 gap-1.5 border-t pt-3" data-testid="preview-missing-sites">
      {notes.map((note) => (
        <li key={note} className="flex gap-2 text-xs text-muted-foreground">
          <AlertTriangle className="mt-0.5 size-3.5 shrink-0 text-amber-600" aria-hidden="true" />
          {note}
        </li>
      ))}
    </ul>
  );
}
