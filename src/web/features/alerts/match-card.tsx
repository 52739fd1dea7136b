import { BellPlus, Check, ExternalLink, MailOpen, ThumbsDown, ThumbsUp, X } from 'lucide-react';
import { type AlertEntry, describeAlsoOn, entryHeadline } from '../../../shared/alert-entries.ts';
import type { Match, MatchRating, UpdateMatchSignalsBody } from '../../../shared/match.ts';
import { describeHitFields } from '../../../shared/match-view.ts';
import { INTENT_LABELS } from '../../../shared/signals.ts';
import { formatCommunity, SOURCE_LABELS } from '../../../shared/sources.ts';
import { SnippetText } from '../../components/snippet-text.tsx';
import { SourceIcon } from '../../components/source-badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import { cn } from '../../lib/cn.ts';
import { relativeTime } from '../../lib/relative-time.ts';
import { safeHttpUrl } from '../../lib/safe-url.ts';
import { CorrectSignalsDialog } from './correct-signals-dialog.tsx';
import { languageName, SENTIMENT_LABELS } from './signal-chips.tsx';

/**
 * The item's signals as hints (read by Earshot when the item arrived; decision 0035): its
 * intents, its tone unless neutral, and its language unless English.
 */
function SignalHints({
  intents,
  sentiment,
  language,
  corrected,
}: Pick<Match, 'intents' | 'sentiment' | 'language'> & { corrected: boolean }) {
  const hints = [
    ...intents.map((intent) => INTENT_LABELS[intent]),
    ...(sentiment && sentiment !== 'neutral' ? [SENTIMENT_LABELS[sentiment]] : []),
    ...(language && language !== 'en' ? [languageName(language)] : []),
  ];
  if (hints.length === 0) return null;
  return (
    <span
      className="flex flex-wrap items-center gap-1"
      data-testid="match-signals"
      title={
        corrected
          ? 'As you corrected them'
          : 'Read by Earshot from the text when it arrived: a hint, sometimes wrong'
      }
    >
      <span className="sr-only">{corrected ? 'Hints, as you corrected them:' : 'Hints:'}</span>
      {hints.map((hint) => (
        <span key={hint} className="rounded-full border px-2 py-0.5 text-[11px] leading-none">
          {hint}
        </span>
      ))}
    </span>
  );
}

/**
 * One alert: one item, however many monitors caught it (each named), or one conversation ("12
 * new comments in …", linked to the thread, its items listed when expanded), or one link posted
 * on several sites ("also on …"). A post is named by its title with the hits in it, a comment by
 * its thread ("on: …"), linked to the comment itself.
 * Everything here came from a stranger's post: it is rendered as text nodes only, and only
 * http(s) URLs become links (a `javascript:` URL is shown as text).
 */
export function MatchCard({
  entry,
  monitorNames,
  now,
  onOpen,
  onToggleRead,
  onDismiss,
  onFollow,
  onRate,
  onCorrectSignals,
}: {
  entry: AlertEntry;
  monitorNames: readonly string[];
  now: number;
  onOpen: () => void;
  onToggleRead: () => void;
  onDismiss: () => void;
  /** Follows the thread (its new comments come as alerts for 7 days); null when it is unknown. */
  onFollow: (() => void) | null;
  /** Rates every match of the alert; the same rating again takes it back (null). */
  onRate: (rating: MatchRating | null) => void;
  /** Saves the user's correction of the hints; resolves false when it failed. */
  onCorrectSignals?: (signals: UpdateMatchSignalsBody) => Promise<boolean>;
}) {
  const group = entry.lead;
  const match = group.match;
  const read = entry.read;
  const permalink = safeHttpUrl(entry.thread?.permalink ?? match.permalink);
  const link = safeHttpUrl(match.url);
  const headline = entryHeadline(entry);
  const title = headline.text;
  const titleHits =
    match.title && headline.highlights.length > 0 ? group.titleHighlights : headline.highlights;
  const alsoOn = describeAlsoOn(entry.alsoOn);
  const more = entry.items.length > 1 ? entry.items : [];
  const hits = describeHitFields(group.hitFields);
  // The alert's rating and score: its most relevant match's (each monitor scores its own).
  const rating = entry.matches.find((m) => m.rating !== null)?.rating ?? null;
  const scored = entry.matches.reduce<typeof match | null>(
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
      data-items={entry.items.length}
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
            <SignalHints
              intents={match.intents}
              sentiment={match.sentiment}
              language={match.language}
              corrected={match.signalsCorrected}
            />
            {onCorrectSignals ? (
              <CorrectSignalsDialog match={match} title={title} onSave={onCorrectSignals} />
            ) : null}
          </div>
          {alsoOn ? (
            <p className="mt-2 text-xs text-muted-foreground" data-testid="match-also-on">
              {alsoOn.charAt(0).toUpperCase()}
              {alsoOn.slice(1)}:{' '}
              {entry.alsoOn.map((other, index) => {
                const href = safeHttpUrl(other.permalink);
                const label = other.community
                  ? formatCommunity(other.source, other.community)
                  : SOURCE_LABELS[other.source];
                return (
                  <span key={other.permalink}>
                    {index > 0 ? ', ' : null}
                    {href ? (
                      <a
                        href={href}
                        target="_blank"
                        rel="noopener noreferrer"
                        onClick={onOpen}
                        className="underline-offset-2 hover:underline"
                      >
                        {label}
                      </a>
                    ) : (
                      label
                    )}
                  </span>
                );
              })}
            </p>
          ) : null}
          {more.length > 0 ? (
            <details className="mt-2 text-sm" data-testid="match-thread">
              <summary className="cursor-pointer text-xs font-medium text-muted-foreground hover:text-foreground">
                Show all {more.length}
              </summary>
              <ul className="mt-2 grid gap-2 border-l pl-3">
                {more.map((item) => {
                  const href = safeHttpUrl(item.match.permalink);
                  return (
                    <li key={item.key} data-testid="match-thread-item">
                      <p className="text-xs text-muted-foreground">
                        {SOURCE_LABELS[item.match.source]}
                        {item.match.author ? ` · ${item.match.author}` : ''} ·{' '}
                        {relativeTime(item.match.itemCreatedAt, now)}
                        {href ? (
                          <>
                            {' · '}
                            <a
                              href={href}
                              target="_blank"
                              rel="noopener noreferrer"
                              onClick={onOpen}
                              className="hover:underline"
                            >
                              open
                            </a>
                          </>
                        ) : null}
                      </p>
                      {item.snippet ? (
                        <p className="leading-relaxed wrap-anywhere text-muted-foreground">
                          <SnippetText text={item.snippet} highlights={item.highlights} />
                        </p>
                      ) : (
                        <p className="leading-relaxed wrap-anywhere">{item.match.title ?? ''}</p>
                      )}
                    </li>
                  );
                })}
              </ul>
            </details>
          ) : null}
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
          {onFollow ? (
            <Button
              variant="ghost"
              size="icon"
              onClick={onFollow}
              aria-label={`Follow thread: ${title}`}
              title="Follow thread: its new comments come as alerts for 7 days"
            >
              <BellPlus />
            </Button>
          ) : null}
          <Button variant="ghost" size="icon" onClick={onDismiss} aria-label={`Dismiss: ${title}`}>
            <X />
          </Button>
        </div>
      </div>
    </article>
  );
}
