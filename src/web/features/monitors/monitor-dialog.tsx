import { skipToken } from '@reduxjs/toolkit/query/react';
import { Loader2 } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { toast } from 'sonner';
import type { Monitor } from '../../../shared/monitor.ts';
import { SOURCE_LABELS, SOURCE_NAMES, type SourceName } from '../../../shared/sources.ts';
import { FormError } from '../../components/form-parts.tsx';
import { SourceIcon } from '../../components/source-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { describeApiError } from '../../lib/api.ts';
import { SnippetText } from '../alerts/snippet-text.tsx';
import { MonitorWebhookSettings } from './monitor-webhook.tsx';
import {
  useCreateMonitorMutation,
  usePreviewMonitorQuery,
  useUpdateMonitorMutation,
} from './monitors-api.ts';
import { QueryHelp } from './query-help.tsx';
import { QueryText } from './query-text.tsx';

const CHECK_DELAY_MS = 350;

/** The API's answer to a query it refuses: where and why, or only why. */
type QueryProblem = { message: string; position?: number };

function queryProblemOf(error: unknown): QueryProblem | null {
  if (!error || typeof error !== 'object' || !('status' in error) || error.status !== 400) {
    return null;
  }
  const body = (error as { data?: { error?: { message?: string; details?: unknown } } }).data
    ?.error;
  if (!body?.message) return null;
  const details = body.details as { position?: unknown; message?: unknown } | undefined;
  if (details && typeof details.position === 'number' && typeof details.message === 'string') {
    return { message: details.message, position: details.position };
  }
  return { message: body.message };
}

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** Create or edit a monitor: the query checked as it is typed, and what it would have found. */
export function MonitorDialog({
  open,
  onOpenChange,
  monitor,
  initialQuery = '',
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The monitor to edit; absent: a new one. */
  monitor?: Monitor | undefined;
  initialQuery?: string;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="monitor-dialog">
        <DialogTitle>{monitor ? 'Edit monitor' : 'New monitor'}</DialogTitle>
        <DialogDescription>
          The words Earshot listens for. You see what it would have found this week before you save.
        </DialogDescription>
        {open ? (
          <MonitorForm
            monitor={monitor}
            initialQuery={initialQuery}
            onDone={() => onOpenChange(false)}
          />
        ) : null}
        {open && monitor ? (
          <section className="mt-2 border-t pt-4" aria-label="Webhook">
            <h3 className="text-sm font-semibold">Webhook</h3>
            <p className="mb-3 text-xs text-muted-foreground">
              Also send this monitor’s matches to Slack, Discord or your own endpoint.
            </p>
            <MonitorWebhookSettings monitorId={monitor.id} />
          </section>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

function MonitorForm({
  monitor,
  initialQuery,
  onDone,
}: {
  monitor?: Monitor | undefined;
  initialQuery: string;
  onDone: () => void;
}) {
  const [query, setQuery] = useState(monitor?.query ?? initialQuery);
  const [name, setName] = useState(monitor?.name ?? '');
  const [sources, setSources] = useState<SourceName[]>(monitor?.sources ?? [...SOURCE_NAMES]);
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [create, creating] = useCreateMonitorMutation();
  const [update, updating] = useUpdateMonitorMutation();
  const ids = { query: useId(), name: useId(), problem: useId(), hint: useId() };

  const checked = useDebounced(
    { query: query.trim(), sources: [...sources].sort() },
    CHECK_DELAY_MS,
  );
  const preview = usePreviewMonitorQuery(
    checked.query && checked.sources.length > 0 ? checked : skipToken,
  );
  const stale = checked.query !== query.trim();
  const problem = !stale && preview.isError ? queryProblemOf(preview.error) : null;
  const previewFailed = !stale && preview.isError && !problem;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitError(null);
    if (!query.trim()) {
      setSubmitError('Write a query, e.g. pglite or "open source".');
      return;
    }
    if (sources.length === 0) {
      setSubmitError('Choose at least one site.');
      return;
    }
    const body = { query: query.trim(), name: name.trim(), sources };
    const result = monitor ? await update({ id: monitor.id, changes: body }) : await create(body);
    if ('error' in result && result.error) {
      setSubmitError(describeApiError(result.error));
      return;
    }
    toast.success(monitor ? 'Monitor saved' : 'Monitor created: listening now');
    onDone();
  }

  const busy = creating.isLoading || updating.isLoading;
  return (
    <form onSubmit={submit} className="grid gap-5" noValidate>
      <div className="grid gap-2">
        <Label htmlFor={ids.query}>Query</Label>
        <Input
          id={ids.query}
          name="query"
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          placeholder='pglite OR "embedded postgres"'
          autoComplete="off"
          spellCheck={false}
          autoFocus
          className="font-mono"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? ids.problem : ids.hint}
          maxLength={500}
        />
        {query ? (
          <div
            className="rounded-md bg-muted px-3 py-2"
            data-testid="query-highlighted"
            aria-hidden="true"
          >
            <QueryText query={query} errorAt={problem?.position} />
          </div>
        ) : null}
        {problem ? (
          <p
            id={ids.problem}
            className="text-sm text-destructive"
            data-testid="query-error"
            role="alert"
          >
            {problem.position !== undefined
              ? `At character ${problem.position + 1}: ${problem.message}`
              : problem.message}
          </p>
        ) : (
          <p id={ids.hint} className="text-xs text-muted-foreground">
            Plain words work: <code>rust</code> finds “Rust’s”, never “trust”. See the help below
            for phrases, OR, -exclusions and more.
          </p>
        )}
      </div>

      <div className="grid gap-2">
        <Label htmlFor={ids.name}>Name (optional)</Label>
        <Input
          id={ids.name}
          name="name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Our product"
          maxLength={100}
        />
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Sites</legend>
        <div className="flex flex-wrap gap-2">
          {SOURCE_NAMES.map((source) => {
            const checkedSource = sources.includes(source);
            return (
              <label
                key={source}
                className="flex h-10 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring"
              >
                <input
                  type="checkbox"
                  name="sources"
                  value={source}
                  checked={checkedSource}
                  className="size-4 accent-[var(--primary)]"
                  onChange={() =>
                    setSources((current) =>
                      checkedSource ? current.filter((s) => s !== source) : [...current, source],
                    )
                  }
                />
                <SourceIcon source={source} className="size-5" />
                {SOURCE_LABELS[source]}
              </label>
            );
          })}
        </div>
      </fieldset>

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
            <Loader2 className="size-4 animate-spin" aria-hidden="true" /> Looking through this
            week’s posts…
          </p>
        ) : problem ? (
          <p className="text-sm text-muted-foreground">Fix the query to see a preview.</p>
        ) : previewFailed ? (
          <p className="text-sm text-destructive">{describeApiError(preview.error)}</p>
        ) : preview.data ? (
          <>
            <p className="text-sm font-medium" data-testid="preview-summary">
              {preview.data.estimated ? 'About ' : ''}
              {preview.data.count.toLocaleString('en')}{' '}
              {preview.data.count === 1 ? 'match' : 'matches'} this week · about{' '}
              {preview.data.perDay.toLocaleString('en')} alerts a day
            </p>
            {preview.data.items.length > 0 ? (
              <ul className="mt-3 grid gap-3">
                {preview.data.items.slice(0, 5).map((item) => (
                  <li key={item.id} className="flex gap-2 text-sm">
                    <SourceIcon source={item.source} className="mt-0.5 size-5" />
                    <div className="min-w-0">
                      <p className="truncate font-medium">{item.title ?? 'Comment'}</p>
                      <p className="line-clamp-2 text-muted-foreground">
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
        ) : null}
      </section>

      <details className="rounded-lg border">
        <summary className="cursor-pointer rounded-lg px-4 py-3 text-sm font-medium">
          Query syntax and examples
        </summary>
        <div className="px-1 pb-1">
          <QueryHelp />
        </div>
      </details>

      <FormError message={submitError} />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy || Boolean(problem)} aria-busy={busy}>
          {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : null}
          {monitor ? 'Save changes' : 'Create monitor'}
        </Button>
      </div>
    </form>
  );
}
