import { useState } from 'react';
import { toast } from 'sonner';
import type { Delivery, DeliveryState } from '../../../shared/deliveries.ts';
import { FormError } from '../../components/form-parts.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { describeApiError } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import {
  useListEmailsQuery,
  useListWebhookCallsQuery,
  useSendEmailAgainMutation,
  useSendWebhookCallAgainMutation,
} from './deliveries-api.ts';

/** While something is on its way, the list is read again this often to show how it ends. */
const POLL_MS = 2000;

const STATE_LABELS: Record<DeliveryState, string> = {
  queued: 'Queued',
  deferred: 'Deferred',
  sent: 'Sent',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

const STATE_STYLES: Record<DeliveryState, string> = {
  queued: 'text-muted-foreground',
  deferred: 'text-foreground',
  sent: 'text-foreground',
  failed: 'text-destructive',
  cancelled: 'text-muted-foreground',
};

/**
 * Polls a history while something in it is on its way (queued or deferred), so it shows how that
 * ends; idle lists are read once.
 */
function useBusyPolling() {
  const [busy, setBusy] = useState(false);
  return {
    options: { pollingInterval: busy ? POLL_MS : 0 },
    watch(deliveries: readonly Delivery[] | undefined) {
      const now = Boolean(
        deliveries?.some((entry) => entry.state === 'queued' || entry.state === 'deferred'),
      );
      if (now !== busy) setBusy(now);
    },
  };
}

/** A monitor's last webhook calls (docs/webhooks.md, "History"), each failed one sendable again. */
export function WebhookCalls({ monitorId }: { monitorId: string }) {
  const polling = useBusyPolling();
  const calls = useListWebhookCallsQuery(monitorId, polling.options);
  polling.watch(calls.data);
  const [sendAgain] = useSendWebhookCallAgainMutation();
  return (
    <DeliveryList
      label="Webhook calls"
      empty="No webhook calls yet."
      query={calls}
      sendAgain={(id) => sendAgain({ monitorId, id })}
    />
  );
}

/** The user's last emails: sent, deferred, failed, and why. */
export function EmailHistory() {
  const polling = useBusyPolling();
  const emails = useListEmailsQuery(undefined, polling.options);
  polling.watch(emails.data);
  const [sendAgain] = useSendEmailAgainMutation();
  return (
    <DeliveryList label="Emails" empty="No emails yet." query={emails} sendAgain={sendAgain} />
  );
}

function DeliveryList({
  label,
  empty,
  query,
  sendAgain,
}: {
  label: string;
  empty: string;
  query: { data?: Delivery[] | undefined; isLoading: boolean; error?: unknown };
  sendAgain: (id: string) => Promise<{ error?: unknown }>;
}) {
  if (query.isLoading) return <Skeleton className="h-12" />;
  if (query.error) return <FormError message={describeApiError(query.error)} />;
  if (!query.data || query.data.length === 0) {
    return <p className="text-sm text-muted-foreground">{empty}</p>;
  }
  return (
    <ul className="grid max-h-72 gap-1 overflow-y-auto text-sm" aria-label={label}>
      {query.data.map((entry) => (
        <DeliveryRow key={entry.id} entry={entry} sendAgain={sendAgain} />
      ))}
    </ul>
  );
}

function DeliveryRow({
  entry,
  sendAgain,
}: {
  entry: Delivery;
  sendAgain: (id: string) => Promise<{ error?: unknown }>;
}) {
  const [sending, setSending] = useState(false);
  const at = entry.lastAttemptAt ?? entry.createdAt;
  const facts = [
    entry.subject ?? describePurpose(entry),
    entry.responseStatus !== null ? `status ${entry.responseStatus}` : null,
    entry.durationMs !== null ? `${entry.durationMs} ms` : null,
    entry.attempts > 1 ? `${entry.attempts} attempts` : null,
  ].filter(Boolean);
  const again = async () => {
    setSending(true);
    const result = await sendAgain(entry.id);
    setSending(false);
    if (result.error) toast.error(describeApiError(result.error));
    else toast.success('Queued again: it is sent within seconds.');
  };
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2"
      data-testid="delivery"
      data-state={entry.state}
    >
      <div className="min-w-0">
        <p>
          <span className={cn('font-medium', STATE_STYLES[entry.state])}>
            {STATE_LABELS[entry.state]}
          </span>{' '}
          <time
            dateTime={at}
            title={new Date(at).toLocaleString()}
            className="text-muted-foreground"
          >
            {relativeTime(at)}
          </time>
          <span className="text-muted-foreground"> · {facts.join(' · ')}</span>
        </p>
        {entry.error ? (
          <p className="break-words text-xs text-muted-foreground">{entry.error}</p>
        ) : null}
      </div>
      {entry.state === 'failed' ? (
        <Button size="sm" variant="outline" disabled={sending} onClick={() => void again()}>
          Send again
        </Button>
      ) : null}
    </li>
  );
}

function describePurpose(entry: Delivery): string {
  if (entry.purpose === 'test') return 'a test';
  if (entry.purpose === 'notice') return 'a notice';
  return entry.matchCount === 1 ? '1 match' : `${entry.matchCount} matches`;
}
