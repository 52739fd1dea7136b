import { Check, ExternalLink, MailOpen, ThumbsDown, ThumbsUp, X } from 'lucide-react';
import type { MatchRating } from '../../../shared/match.ts';
import type { MatchGroup } from '../../../shared/match-groups.ts';
import { describeHitFields, matchHeadline } from '../../../shared/match-view.ts';
import { formatCommunity, SOURCE_LABELS } from '../../../shared/sources.ts';
import { SnippetText } from '../../components/snippet-text.tsx';
import { SourceIcon } from '../../components/source-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';

/**
 * One alert: one item, however many monitors caught it (each named). A post is named by its
 * title with the hits in it, a comment by its thread ("on: …"), linked to the comment itself.
 * Everything here came from a stranger's post: it is rendered as text nodes only, and only
 * http(s) URLs become links (a `javascript:` URL is shown as text).
 */
export function MatchCard({
  group,
  monitorNames,
  now,
  onOpen,
  onToggleRead,
  onDismiss,
  onRate,
}: {
  group: MatchGroup;
  monitorNames: readonly string[];
  now: number;
  onOpen: () => void;
  onToggleRead: () => void;
  onDismiss: () => void;
  /** Rates every match of the alert; the same rating again takes it back (null). */
  onRate: (rating: MatchRating | null) => void;
}) {
  const match = group.match;
  const read = group.read;
  const permalink = safeHttpUrl(match.permalink);
  const link = safeHttpUrl(match.url);
  const headline = matchHeadline(match);
  const title = headline.text;
  const titleHits = match.title ? group.titleHighlights : headline.highlights;
  const hits = describeHitFields(group.hitFields);
  // The alert's rating and score: its most relevant match's (each monitor scores its own).
  const rating = group.matches.find((m) => m.rating !== null)?.rating ?? null;
  const scored = group.matches.reduce<typeof match | null>(
    (best, m) =>
      m.relevance !== null && (best === null || (best.relevance ?? 0) < m.relevance) ? m : best,
    null,
  );
  const where = match.community
    ? formatCommunity(match.source, match.community)
    : SOURCE_LABELS[match.source];
  return (
    <article
      className={cn(
        'relative rounded-xl border bg-card p-4 shadow-sm transition-colors sm:p-5',
        !read && 'border-primary/40',
      )}
      aria-label={`${read ? '' : 'Unread: '}${title}`}
      data-testid="match-card"
      data-read={read}
    >
      <div className="flex items-start gap-3">
        <SourceIcon source={match.source} className="mt-0.5" />
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 text-xs text-muted-foreground">
            {!read ? <span className="size-2 rounded-full bg-primary" aria-hidden="true" /> : null}
            <span className="font-medium text-foreground">{where}</span>
            <span aria-hidden="true">·</span>
            <time
              dateTime={match.itemCreatedAt}
              title={new Date(match.itemCreatedAt).toLocaleString()}
            >
              {relativeTime(match.itemCreatedAt, now)}
            </time>
            {monitorNames.length > 0 ? (
              <>
                <span aria-hidden="true">·</span>
                <span className="truncate" data-testid="match-monitors">
                  {monitorNames.join(', ')}
                </span>
              </>
            ) : null}
            {hits ? (
              <>
                <span aria-hidden="true">·</span>
                <span data-testid="match-hit-fields">hit {hits}</span>
              </>
            ) : null}
          </p>
          <h2 className={cn('mt-1 text-base leading-snug', !read && 'font-semibold')}>
            {permalink ? (
              <a
                href={permalink}
                target="_blank"
                rel="noopener noreferrer"
                onClick={onOpen}
                className="rounded-sm hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
                data-testid="match-title-link"
              >
                <SnippetText text={title} highlights={titleHits} />
              </a>
            ) : (
              <span>
                <SnippetText text={title} highlights={titleHits} />
              </span>
            )}
          </h2>
          {group.snippet ? (
            <p
              className="mt-2 text-sm leading-relaxed wrap-anywhere text-muted-foreground"
              data-testid="match-snippet"
            >
              <SnippetText text={group.snippet} highlights={group.highlights} />
            </p>
          ) : null}
          <div className="mt-3 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground">
            {scored?.relevance != null ? (
              <span data-testid="match-relevance" className="flex flex-wrap items-center gap-x-1">
                <span className="font-medium text-foreground">
                  {Math.round(scored.relevance * 100)}% relevant
                </span>
                {scored.relevanceReasons.length > 0 ? (
                  <span data-testid="match-relevance-reasons">
                    ({scored.relevanceReasons.join('; ')})
                  </span>
                ) : null}
              </span>
            ) : null}
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
            onClick={() => onRate(rating === 'relevant' ? null : 'relevant')}
            aria-label={`Relevant: ${title}`}
            aria-pressed={rating === 'relevant'}
            className={cn(rating === 'relevant' && 'text-primary')}
          >
            <ThumbsUp className={cn(rating === 'relevant' && 'fill-current')} />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            onClick={() => onRate(rating === 'irrelevant' ? null : 'irrelevant')}
            aria-label={`Not relevant: ${title}`}
            aria-pressed={rating === 'irrelevant'}
            className={cn(rating === 'irrelevant' && 'text-destructive')}
          >
            <ThumbsDown className={cn(rating === 'irrelevant' && 'fill-current')} />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            onClick={onToggleRead}
            aria-label={read ? `Mark unread: ${title}` : `Mark read: ${title}`}
            aria-pressed={read}
          >
            {read ? <MailOpen /> : <Check />}
          </Button>
          <Button variant="ghost" size="icon" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
            <X />
          </Button>
        </div>
      </div>
    </article>
  );
}
