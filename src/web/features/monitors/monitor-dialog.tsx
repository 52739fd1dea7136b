import type { Monitor } from '../../../shared/monitor.ts';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { AlertFeedLink } from '../alert-feeds/index.ts';
import { WebhookCalls } from '../deliveries/index.ts';
import { MonitorForm } from './monitor-form.tsx';
import { MonitorWebhookSettings } from './monitor-webhook.tsx';

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
            <h4 className="mt-4 mb-2 text-xs font-semibold">Recent calls</h4>
            <WebhookCalls monitorId={monitor.id} />
          </section>
        ) : null}
        {open && monitor ? (
          <section className="mt-2 border-t pt-4" aria-label="Feed">
            <h3 className="text-sm font-semibold">Feed</h3>
            <p className="mb-3 text-xs text-muted-foreground">
              This monitor’s matches as RSS, Atom or JSON Feed.
            </p>
            <AlertFeedLink monitorId={monitor.id} />
          </section>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
