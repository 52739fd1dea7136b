import { Check, ExternalLink, MailOpen, X } from 'lucide-react';
import type { Match } from '../../../shared/match.ts';
import { formatCommunity, SOURCE_LABELS } from '../../../shared/sources.ts';
import { SnippetText } from '../../components/snippet-text.tsx';
import { SourceIcon } from '../../components/source-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';

/**
 * One alert. Everything here came from a stranger's post: it is rendered as text nodes only,
 * and only http(s) URLs become links (a `javascript:` URL is shown as text).
 */
export function MatchCard({
  match,
  monitorName,
  now,
  onOpen,
  onToggleRead,
  onDismiss,
}: {
  match: Match;
  monitorName: string | undefined;
  now: number;
  onOpen: () => void;
  onToggleRead: () => void;
  onDismiss: () => void;
}) {
  const permalink = safeHttpUrl(match.permalink);
  const link = safeHttpUrl(match.url);
  const title = match.title ?? (match.kind === 'comment' ? 'Comment' : 'Post');
  const where = match.community
    ? formatCommunity(match.source, match.community)
    : SOURCE_LABELS[match.source];
  return (
    <article
      className={cn(
        'relative rounded-xl border bg-card p-4 shadow-sm transition-colors sm:p-5',
        !match.read && 'border-primary/40',
      )}
      aria-label={`${match.read ? '' : 'Unread: '}${title}`}
      data-testid="match-card"
      data-read={match.read}
    >
      <div className="flex items-start gap-3">
        <SourceIcon source={match.source} className="mt-0.5" />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
            {!match.read ? (
              <span className="size-2 rounded-full bg-primary" aria-hidden="true" />
            ) : null}
            <span className="font-medium text-foreground">{where}</span>
            <span aria-hidden="true">·</span>
            <time
              dateTime={match.itemCreatedAt}
              title={new Date(match.itemCreatedAt).toLocaleString()}
            >
              {relativeTime(match.itemCreatedAt, now)}
            </time>
            {monitorName ? (
              <>
                <span aria-hidden="true">·</span>
                <span className="truncate">{monitorName}</span>
              </>
            ) : null}
          </p>
          <h2 className={cn('mt-1 text-base leading-snug', !match.read && 'font-semibold')}>
            {permalink ? (
              <a
                href={permalink}
                target="_blank"
                rel="noopener noreferrer"
                onClick={onOpen}
                className="rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-testid="match-title-link"
              >
                {title}
              </a>
            ) : (
              <span>{title}</span>
            )}
          </h2>
          <p
            className="mt-2 text-sm leading-relaxed wrap-anywhere text-muted-foreground"
            data-testid="match-snippet"
          >
            <SnippetText text={match.snippet} highlights={match.highlights} />
          </p>
          <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            {match.author ? <span>by {match.author}</span> : null}
            {match.url ? (
              link ? (
                <a
                  href={link}
                  target="_blank"
                  rel="noopener noreferrer"
                  onClick={onOpen}
                  className="flex max-w-full items-center gap-1 truncate rounded-sm hover:underline"
                  data-testid="match-url"
                >
                  <ExternalLink className="size-3 shrink-0" aria-hidden="true" />
                  <span className="truncate">{new URL(link).hostname}</span>
                </a>
              ) : (
                <span className="max-w-full truncate font-mono" data-testid="match-url-text">
                  {match.url}
                </span>
              )
            ) : null}
          </div>
        </div>
        <div className="flex shrink-0 flex-col gap-1 sm:flex-row">
          <Button
            variant="ghost"
            size="icon"
            onClick={onToggleRead}
            aria-label={match.read ? `Mark unread: ${title}` : `Mark read: ${title}`}
            aria-pressed={match.read}
          >
            {match.read ? <MailOpen /> : <Check />}
          </Button>
          <Button variant="ghost" size="icon" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
            <X />
          </Button>
        </div>
      </div>
    </article>
  );
}
