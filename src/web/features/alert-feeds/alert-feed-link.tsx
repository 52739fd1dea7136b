import { Check, Copy, Rss } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { AlertFeedFormat, CreatedAlertFeed } from '../../../shared/alert-feeds.ts';
import { FormError } from '../../components/form-parts.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogTitle,
} from '../../components/ui/dialog.tsx';
import { describeApiError } from '../../lib/api.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import {
  useDeleteAlertFeedMutation,
  useListAlertFeedsQuery,
  useResetAlertFeedMutation,
} from './alert-feeds-api.ts';

const FORMATS: { format: AlertFeedFormat; label: string }[] = [
  { format: 'rss', label: 'RSS' },
  { format: 'atom', label: 'Atom' },
  { format: 'json', label: 'JSON Feed' },
];

/**
 * The feed link of a monitor (or, with `monitorId` null, of all alerts): make it, copy it in
 * each format, reset it, turn it off. The link holds a secret that is stored only as a hash, so
 * it is shown once, when it is made or reset (docs/decisions/0039-alert-feeds.md).
 */
export function AlertFeedLink({ monitorId }: { monitorId: string | null }) {
  const { feed } = useListAlertFeedsQuery(undefined, {
    selectFromResult: ({ data }) => ({
      feed: data?.find((candidate) => candidate.monitorId === monitorId) ?? null,
    }),
  });
  const [created, setCreated] = useState<CreatedAlertFeed | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [reset, resetting] = useResetAlertFeedMutation();
  const [remove, removing] = useDeleteAlertFeedMutation();

  const makeLink = async () => {
    setProblem(null);
    setConfirming(false);
    const result = await reset({ monitorId });
    if (result.error) setProblem(describeApiError(result.error));
    else setCreated(result.data);
  };
  const turnOff = async () => {
    if (!feed) return;
    setProblem(null);
    const result = await remove(feed.id);
    if (result.error) setProblem(describeApiError(result.error));
    else {
      setCreated(null);
      toast.success('Feed link turned off. Readers using it get nothing from now on.');
    }
  };

  return (
    <div className="grid gap-3" data-testid="alert-feed">
      <FormError message={problem} />
      {created ? (
        <Alert variant="success" role="status">
          <p className="font-medium">Copy the link now: it is not shown again.</p>
          <ul className="mt-2 grid gap-2">
            {FORMATS.map(({ format, label }) => (
              <FeedUrl key={format} label={label} url={created.urls[format]} />
            ))}
          </ul>
        </Alert>
      ) : feed ? (
        <p className="text-sm text-muted-foreground">
          This feed has a link, made {relativeTime(feed.createdAt)}. It is shown only when it is
          made: to copy it again, reset it (the old link stops working).
        </p>
      ) : (
        <p className="text-sm text-muted-foreground">
          No feed link yet. A feed reader or tool can follow the latest 50 matches in RSS, Atom or
          JSON Feed, without signing in.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {!feed ? (
          <Button
            type="button"
            variant="outline"
            disabled={resetting.isLoading}
            onClick={() => void makeLink()}
          >
            <Rss aria-hidden="true" /> Make feed link
          </Button>
        ) : confirming ? (
          <>
            <Button
              type="button"
              variant="destructive"
              disabled={resetting.isLoading}
              onClick={() => void makeLink()}
            >
              Reset: the old link stops working
            </Button>
            <Button type="button" variant="ghost" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </>
        ) : (
          <>
            <Button type="button" variant="outline" onClick={() => setConfirming(true)}>
              Reset feed link
            </Button>
            <Button
              type="button"
              variant="ghost"
              disabled={removing.isLoading}
              onClick={() => void turnOff()}
            >
              Turn off
            </Button>
          </>
        )}
      </div>
    </div>
  );
}

function FeedUrl({ label, url }: { label: string; url: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast.success(`${label} link copied.`);
    } catch {
      toast.error('The browser did not allow copying. Select the link and copy it by hand.');
    }
  };
  return (
    <li className="grid gap-1">
      <span className="text-xs font-medium">{label}</span>
      <div className="flex min-w-0 items-center gap-2">
        <code className="min-w-0 flex-1 break-all rounded bg-card px-2 py-1 font-mono text-xs">
          {url}
        </code>
        <Button
          type="button"
          size="sm"
          variant="outline"
          aria-label={copied ? `Copied the ${label} link` : `Copy the ${label} link`}
          onClick={() => void copy()}
        >
          {copied ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
    </li>
  );
}

/** The Alerts page's button: the feed of all alerts, in a dialog. */
export function AllAlertsFeedButton() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Rss aria-hidden="true" /> Feed
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent>
          <DialogTitle>Feed of all alerts</DialogTitle>
          <DialogDescription>
            The latest 50 matches of all your monitors, for a feed reader or another tool.
          </DialogDescription>
          {open ? <AlertFeedLink monitorId={null} /> : null}
        </DialogContent>
      </Dialog>
    </>
  );
}
