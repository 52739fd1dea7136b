import { Plus, Radar, RotateCw } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { Monitor } from '../../../shared/monitor.ts';
import { listSourceLabels } from '../../../shared/sources.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { describeApiError } from '../../lib/api.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useNow } from '../../lib/use-now.ts';
import { MonitorCard } from './monitor-card.tsx';
import { MonitorDialog } from './monitor-dialog.tsx';
import { useCreateMonitorMutation, useListMonitorsQuery } from './monitors-api.ts';
import { QueryHelp } from './query-help.tsx';
import { QueryText } from './query-text.tsx';

/** Three monitors that show what the language does, one click away from a new user. */
export const EXAMPLE_MONITORS = [
  { name: 'Postgres in the browser', query: 'pglite OR "embedded postgres"' },
  { name: 'Rust releases, not jobs', query: 'rust* release -hiring' },
  { name: 'Self-hosting on Reddit', query: 'self-hosted site:reddit' },
] as const;

type DialogState = { open: false } | { open: true; monitor?: Monitor; initialQuery?: string };

export function MonitorsPage() {
  usePageTitle('Monitors');
  const monitors = useListMonitorsQuery();
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const now = useNow();
  const list = monitors.data ?? [];

  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Monitors"
        description="The words Earshot listens for on your behalf."
        actions={
          list.length > 0 ? (
            <Button onClick={() => setDialog({ open: true })}>
              <Plus aria-hidden="true" /> New monitor
            </Button>
          ) : null
        }
      />
      <div className="flex flex-col gap-6">
        {monitors.isLoading ? (
          <MonitorsSkeleton />
        ) : monitors.isError ? (
          <Alert variant="destructive" role="alert" data-testid="monitors-error">
            <p>{describeApiError(monitors.error)}</p>
            <Button variant="outline" size="sm" className="mt-3" onClick={() => monitors.refetch()}>
              <RotateCw aria-hidden="true" /> Try again
            </Button>
          </Alert>
        ) : list.length === 0 ? (
          <EmptyMonitors onWrite={() => setDialog({ open: true })} />
        ) : (
          <ul className="grid grid-cols-1 gap-4" aria-label="Your monitors">
            {list.map((monitor) => (
              <MonitorCard
                key={monitor.id}
                monitor={monitor}
                now={now}
                onEdit={() => setDialog({ open: true, monitor })}
              />
            ))}
          </ul>
        )}
        <QueryHelp />
      </div>
      <MonitorDialog
        open={dialog.open}
        onOpenChange={(open) => setDialog(open ? dialog : { open: false })}
        monitor={dialog.open ? dialog.monitor : undefined}
        initialQuery={dialog.open ? (dialog.initialQuery ?? '') : ''}
      />
    </div>
  );
}

function EmptyMonitors({ onWrite }: { onWrite: () => void }) {
  const [create, { isLoading }] = useCreateMonitorMutation();
  async function add(example: (typeof EXAMPLE_MONITORS)[number]) {
    const result = await create({ name: example.name, query: example.query });
    if ('error' in result && result.error) toast.error(describeApiError(result.error));
    else toast.success(`Listening for ${example.name}`);
  }
  return (
    <EmptyState icon={Radar} title="No monitors yet">
      <p>
        A monitor is a word, a phrase or a small query. Earshot watches {listSourceLabels()} for it
        and tells you within seconds. Start from an example, or write your own.
      </p>
      <ul className="mt-5 grid gap-2 text-left" aria-label="Example monitors">
        {EXAMPLE_MONITORS.map((example) => (
          <li key={example.query}>
            <button
              type="button"
              disabled={isLoading}
              onClick={() => void add(example)}
              className="flex w-full flex-col gap-1 rounded-lg border bg-card px-4 py-3 text-left transition-colors hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-60"
            >
              <span className="text-sm font-medium text-foreground">
                <span className="sr-only">Add the example monitor </span>
                {example.name}
              </span>
              <QueryText query={example.query} className="text-xs" />
            </button>
          </li>
        ))}
      </ul>
      <Button className="mt-5" onClick={onWrite}>
        <Plus aria-hidden="true" /> Write your own
      </Button>
    </EmptyState>
  );
}

function MonitorsSkeleton() {
  return (
    <div role="status" aria-busy="true" aria-label="Loading your monitors" className="grid gap-4">
      {[0, 1, 2].map((n) => (
        <div key={n} className="rounded-xl border p-5">
          <Skeleton className="h-5 w-48" />
          <Skeleton className="mt-3 h-4 w-72 max-w-full" />
          <Skeleton className="mt-5 h-6 w-40" />
        </div>
      ))}
    </div>
  );
}
