import { AlertTriangle, BellOff, Pencil, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import type { Monitor } from '../../../shared/monitor.ts';
import { SOURCE_LABELS } from '../../../shared/sources.ts';
import { SourceIcon } from '../../components/source-badge.tsx';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogTitle,
} from '../../components/ui/alert-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Switch } from '../../components/ui/switch.tsx';
import { relativeTime } from '../../lib/relative-time.ts';
import { useAppDispatch } from '../../lib/store-hooks.ts';
import { deleteMonitorWithUndo } from './delete-with-undo.ts';
import { useUpdateMonitorMutation } from './monitors-api.ts';
import { QueryText } from './query-text.tsx';

/** One monitor in the list: its query, sites, counts, and its switches and actions. */
const RHYTHM_LABELS: Record<Monitor['delivery'], string> = {
  default: '',
  instant: 'instant alerts',
  hourly: 'hourly digest',
  daily: 'daily digest',
  weekly: 'weekly digest',
  feed: 'feed only',
};

export function MonitorCard({
  monitor,
  now,
  onEdit,
}: {
  monitor: Monitor;
  now: number;
  onEdit: () => void;
}) {
  const dispatch = useAppDispatch();
  const [update] = useUpdateMonitorMutation();
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const listeningId = useId();
  const emailId = useId();
  const label = monitor.name || monitor.query;

  async function toggle(changes: { paused?: boolean; emailMuted?: boolean }) {
    const result = await update({ id: monitor.id, changes });
    if ('error' in result && result.error) toast.error('The change could not be saved. Try again.');
  }

  return (
    <li
      className="rounded-xl border bg-card p-4 shadow-sm sm:p-5"
      aria-labelledby={titleId}
      data-testid="monitor-card"
    >
      <div className="flex flex-wrap items-start gap-3">
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-base font-semibold">
            {monitor.name || <QueryText query={monitor.query} className="text-base" />}
          </h2>
          {monitor.name ? (
            <p className="mt-1">
              <QueryText query={monitor.query} />
            </p>
          ) : null}
          <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            <span className="flex items-center gap-1">
              {monitor.matchableSources.map((source) => (
                <SourceIcon key={source} source={source} className="size-5 text-[10px]" />
              ))}
            </span>
            <span data-testid="match-count">
              {monitor.matchCount.toLocaleString('en')}{' '}
              {monitor.matchCount === 1 ? 'match' : 'matches'} so far
            </span>
            <span>
              {monitor.lastMatchAt
                ? `last ${relativeTime(monitor.lastMatchAt, now)}`
                : 'no match yet'}
            </span>
            {monitor.paused ? (
              <span className="rounded-full bg-muted px-2 py-0.5 font-medium text-foreground">
                Paused
              </span>
            ) : null}
            {monitor.webhook?.paused ? (
              <button
                type="button"
                onClick={onEdit}
                title={monitor.webhook.pausedReason ?? undefined}
                data-testid="webhook-paused-badge"
                className="rounded-full bg-destructive/10 px-2 py-0.5 font-medium text-destructive hover:underline"
              >
                Webhook paused: check it
              </button>
            ) : null}
            {monitor.emailMuted ? (
              <span className="flex items-center gap-1">
                <BellOff className="size-3" aria-hidden="true" /> no e-mail
              </span>
            ) : null}
            {monitor.delivery !== 'default' ? (
              <span data-testid="monitor-delivery">{RHYTHM_LABELS[monitor.delivery]}</span>
            ) : null}
          </p>
          <CappedNotice monitor={monitor} now={now} />
          {monitor.mutedThreads.length > 0 ? (
            <ul
              className="mt-2 grid gap-1 text-xs text-muted-foreground"
              aria-label="Muted threads"
              data-testid="muted-threads"
            >
              {monitor.mutedThreads.map((thread) => (
                <li
                  key={`${thread.source} ${thread.threadId}`}
                  className="flex flex-wrap items-center gap-2"
                >
                  <BellOff className="size-3" aria-hidden="true" />
                  <span className="min-w-0 truncate">
                    Muted thread: {thread.title ?? thread.threadId} ({SOURCE_LABELS[thread.source]})
                  </span>
                  <button
                    type="button"
                    className="text-primary hover:underline"
                    onClick={() =>
                      void update({
                        id: monitor.id,
                        changes: {
                          unmuteThread: { source: thread.source, threadId: thread.threadId },
                        },
                      })
                    }
                  >
                    Undo
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div className="flex items-center gap-1">
          <Button variant="ghost" size="icon" onClick={onEdit} aria-label={`Edit ${label}`}>
            <Pencil />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            onClick={() => setConfirming(true)}
            aria-label={`Delete ${label}`}
          >
            <Trash2 />
          </Button>
        </div>
      </div>
      <div className="mt-4 flex flex-wrap gap-x-6 gap-y-3 border-t pt-3 text-sm">
        <label htmlFor={listeningId} className="flex cursor-pointer items-center gap-2">
          <Switch
            id={listeningId}
            checked={!monitor.paused}
            onCheckedChange={(on) => void toggle({ paused: !on })}
            aria-label={`Listening: ${label}`}
          />
          Listening
        </label>
        <label htmlFor={emailId} className="flex cursor-pointer items-center gap-2">
          <Switch
            id={emailId}
            checked={!monitor.emailMuted}
            onCheckedChange={(on) => void toggle({ emailMuted: !on })}
            aria-label={`E-mail alerts: ${label}`}
          />
          E-mail alerts
        </label>
      </div>
      <AlertDialog open={confirming} onOpenChange={setConfirming}>
        <AlertDialogContent>
          <AlertDialogTitle>Delete this monitor?</AlertDialogTitle>
          <AlertDialogDescription>
            “{label}” stops listening, and its {monitor.matchCount.toLocaleString('en')} alerts are
            deleted with it. You can undo for a few seconds.
          </AlertDialogDescription>
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialogCancel asChild>
              <Button variant="outline">Keep it</Button>
            </AlertDialogCancel>
            <AlertDialogAction asChild>
              <Button
                variant="destructive"
                onClick={() => deleteMonitorWithUndo(dispatch, monitor)}
              >
                Delete
              </Button>
            </AlertDialogAction>
          </div>
        </AlertDialogContent>
      </AlertDialog>
    </li>
  );
}

/**
 * The hourly cap's notice (MONITOR_MATCHES_PER_HOUR): this hour's matches beyond it were not
 * stored, and when storing starts again. Gone once that hour is over.
 */
function CappedNotice({ monitor, now }: { monitor: Monitor; now: number }) {
  const capped = monitor.cappedThisHour;
  if (!capped || Date.parse(capped.resumesAt) <= now) return null;
  const resumes = new Date(capped.resumesAt).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
  });
  return (
    <p
      className="mt-2 flex gap-2 rounded-md bg-amber-500/10 px-2 py-1.5 text-xs text-amber-900 dark:text-amber-200"
      data-testid="monitor-capped"
    >
      <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
      <span>
        Too many matches this hour: {capped.stored.toLocaleString('en')} stored,{' '}
        {capped.dropped.toLocaleString('en')} more not kept. It stores matches again from {resumes}.
        A narrower query keeps them all.
      </span>
    </p>
  );
}
