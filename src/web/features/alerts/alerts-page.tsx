import { Bell, CheckCheck, Download, RotateCw, Search } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { type AlertEntry, byMonitor, groupAlertEntries } from '../../../shared/alert-entries.ts';
import type { MatchRating, UpdateMatchSignalsBody } from '../../../shared/match.ts';
import {
  type Intent,
  isSignalValue,
  type Sentiment,
  type SignalFilter,
} from '../../../shared/signals.ts';
import { isSourceName, SOURCE_LABELS, SOURCE_NAMES } from '../../../shared/sources.ts';
import { EmptyState } from '../../components/empty-state.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { Alert } from '../../components/ui/alert.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Input } from '../../components/ui/input.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Select } from '../../components/ui/select.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { describeApiError } from '../../lib/api.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { UNDO_WINDOW_MS } from '../../lib/undo-window.ts';
import { useNow } from '../../lib/use-now.ts';
import { AllAlertsFeedButton } from '../alert-feeds/index.ts';
import { useListMonitorsQuery } from '../monitors/index.ts';
import { MatchCard } from './match-card.tsx';
import {
  FEED_PAGE_SIZE,
  type MatchFilters,
  UNREAD_COUNT_CAP,
  useCorrectMatchSignalsMutation,
  useDismissMatchMutation,
  useExportMatchesCsvMutation,
  useFollowThreadMutation,
  useListMatchesInfiniteQuery,
  useLowRelevanceCountQuery,
  useMarkAllReadMutation,
  useMatchStatsQuery,
  useRateMatchesMutation,
  useSetMatchReadMutation,
  useUnreadCountQuery,
} from './matches-api.ts';
import { MentionsChart } from './mentions-chart.tsx';
import { SignalChips } from './signal-chips.tsx';
import { useFreshMatches } from './use-fresh-matches.ts';

const CHART_DAYS = 14;
const SEARCH_DELAY_MS = 300;

const PARAM_NAMES: Record<keyof MatchFilters, string> = {
  monitorId: 'monitor',
  source: 'source',
  unread: 'unread',
  q: 'q',
  sort: 'sort',
  lowRelevance: 'low',
  intent: 'intent',
  sentiment: 'sentiment',
  lang: 'lang',
};

/** The feed's filters, read from and written to the URL, so a filtered feed can be shared. */
function useFilters(): [
  MatchFilters,
  (changes: Partial<Record<keyof MatchFilters, string>>) => void,
] {
  const [params, setParams] = useSearchParams();
  const source = params.get('source') ?? '';
  const filters: MatchFilters = {
    monitorId: params.get('monitor') || undefined,
    source: isSourceName(source) ? source : undefined,
    unread: params.get('unread') === '1' || undefined,
    q: params.get('q')?.trim() || undefined,
    sort: params.get('sort') === 'relevance' ? 'relevance' : undefined,
    lowRelevance: params.get('low') === '1' || undefined,
    intent: signalParam(params, 'intent') as Intent | undefined,
    sentiment: signalParam(params, 'sentiment') as Sentiment | undefined,
    lang: signalParam(params, 'lang'),
  };
  const change = useCallback(
    (changes: Partial<Record<keyof MatchFilters, string>>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const [key, value] of Object.entries(changes)) {
            const name = PARAM_NAMES[key as keyof MatchFilters];
            if (value) next.set(name, value);
            else next.delete(name);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [filters, change];
}

/** A signal filter of the URL, when it holds a value the signal takes. */
function signalParam(params: URLSearchParams, field: SignalFilter['field']): string | undefined {
  const value = params.get(field)?.toLowerCase() ?? '';
  return isSignalValue(field, value) ? value : undefined;
}

export function AlertsPage() {
  const [urlFilters, setFilters] = useFilters();
  const monitors = useListMonitorsQuery();
  // With a relevance threshold on any monitor, the feed leaves out what it holds back and
  // shows it under "Low relevance (N)" instead.
  const thresholds = (monitors.data ?? []).some((m) => m.relevanceThreshold !== null);
  const filters = useMemo<MatchFilters>(
    () => ({
      ...urlFilters,
      lowRelevance: urlFilters.lowRelevance ? true : thresholds ? false : undefined,
    }),
    [urlFilters, thresholds],
  );
  const lowCount = useLowRelevanceCountQuery(undefined, { skip: !thresholds });
  const [rate] = useRateMatchesMutation();
  const [chartSplit, setChartSplit] = useState<'monitor' | 'sentiment'>('monitor');
  const stats = useMatchStatsQuery({ days: CHART_DAYS, by: chartSplit });
  const feed = useListMatchesInfiniteQuery(filters);
  const [setRead] = useSetMatchReadMutation();
  const [dismiss] = useDismissMatchMutation();
  const [follow] = useFollowThreadMutation();
  const [correctMatchSignals] = useCorrectMatchSignalsMutation();
  const [markAll, markingAll] = useMarkAllReadMutation();
  const [exportMatches, exporting] = useExportMatchesCsvMutation();
  const now = useNow();
  const unread = useUnreadCountQuery();
  usePageTitle(
    unread.data?.count
      ? `Alerts (${unread.data.more ? `${UNREAD_COUNT_CAP}+` : unread.data.count})`
      : 'Alerts',
  );

  const items = useMemo(() => feed.data?.pages.flatMap((page) => page.items) ?? [], [feed.data]);
  // One card per item, naming every monitor that caught it (docs/product.md, "One post, one
  // alert"), and one per conversation and per link ("One thread, one alert").
  const groups = useMemo(() => groupAlertEntries(items, { partition: byMonitor }), [items]);
  const monitorNames = useMemo(
    () => new Map((monitors.data ?? []).map((m) => [m.id, m.name || m.query])),
    [monitors.data],
  );

  // New matches wait behind the "N new" pill; a click shows them: the feed is read again, and
  // the first new one is scrolled to and focused, so a screen reader starts there.
  const { fresh, clear: clearFresh } = useFreshMatches(filters, items);
  // New alerts, not new matches: an item two monitors caught is one.
  const freshCount = useMemo(
    () => groupAlertEntries(fresh, { partition: byMonitor }).length,
    [fresh],
  );
  const [focusTarget, setFocusTarget] = useState<string | null>(null);
  const [shownNote, setShownNote] = useState('');
  const listRef = useRef<HTMLUListElement>(null);
  function showFresh() {
    const first = fresh[0];
    if (!first) return;
    setShownNote(`${freshCount} new ${freshCount === 1 ? 'alert' : 'alerts'} shown`);
    setFocusTarget(first.id);
    clearFresh();
    void feed.refetch();
  }
  useEffect(() => {
    // Once the feed read again holds it (in the card of its item).
    const group = groups.find((g) => g.matches.some((match) => match.id === focusTarget));
    if (focusTarget === null || !group) return;
    const card = listRef.current?.querySelector<HTMLElement>(
      `[data-match-id="${CSS.escape(group.lead.match.id)}"]`,
    );
    if (!card) return;
    setFocusTarget(null);
    card.scrollIntoView({ block: 'start' });
    card.focus({ preventScroll: true });
  }, [focusTarget, groups]);

  /** Reads or unreads every match of the item, so the card and the count agree. */
  async function toggleRead(group: AlertEntry, read = !group.read) {
    const changed = group.matches.filter((match) => match.read !== read);
    const results = await Promise.all(changed.map((match) => setRead({ id: match.id, read })));
    if (results.some((result) => 'error' in result && result.error)) {
      toast.error('That could not be saved. Try again.');
    }
  }

  function dismissOne(group: AlertEntry) {
    const request = dismiss(group.matches.map((match) => match.id));
    toast('Alert dismissed', {
      duration: UNDO_WINDOW_MS,
      action: { label: 'Undo', onClick: () => request.abort() },
    });
    void request.then((result) => {
      const error = 'error' in result ? result.error : undefined;
      if (error && !('name' in error && error.name === 'AbortError')) {
        toast.error('That alert could not be dismissed.');
      }
    });
  }

  async function rateEntry(entry: AlertEntry, rating: MatchRating | null) {
    const result = await rate({ ids: entry.matches.map((match) => match.id), rating });
    if ('error' in result && result.error) toast.error('That rating could not be saved.');
  }

  /** Corrects the hints of the item the card is named by (and the user's other matches of it). */
  async function correctSignals(entry: AlertEntry, signals: UpdateMatchSignalsBody) {
    const result = await correctMatchSignals({ id: entry.lead.match.id, signals });
    if ('error' in result && result.error) {
      toast.error(describeApiError(result.error));
      return false;
    }
    toast.success('Hints corrected');
    return true;
  }

  async function exportCsv() {
    const result = await exportMatches(filters);
    if (result.error) {
      toast.error(describeApiError(result.error));
      return;
    }
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([result.data], { type: 'text/csv' }));
    link.download = 'earshot-matches.csv';
    link.click();
    URL.revokeObjectURL(link.href);
  }

  async function markAllRead() {
    const result = await markAll(filters.monitorId ? { monitorId: filters.monitorId } : {});
    if ('error' in result && result.error) toast.error(describeApiError(result.error));
    else toast.success(`${result.data.updated} marked read`);
  }

  const filtered = Boolean(
    filters.monitorId ||
      filters.source ||
      filters.unread ||
      filters.q ||
      filters.intent ||
      filters.sentiment ||
      filters.lang ||
      filters.lowRelevance,
  );
  // The languages of the alerts shown, for the language chips.
  const languages = [...new Set(items.flatMap((match) => match.language ?? []))];
  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Alerts"
        description="Every post and comment your monitors caught, newest first."
        actions={
          <div className="flex flex-wrap gap-2">
            <Button
              variant="outline"
              onClick={() => void exportCsv()}
              disabled={exporting.isLoading || items.length === 0}
              aria-busy={exporting.isLoading}
            >
              <Download aria-hidden="true" /> Export CSV
            </Button>
            <AllAlertsFeedButton />
            <Button
              variant="outline"
              onClick={() => void markAllRead()}
              disabled={markingAll.isLoading || items.length === 0}
            >
              <CheckCheck aria-hidden="true" /> Mark all read
            </Button>
          </div>
        }
      />
      <div className="grid grid-cols-1 gap-6">
        {stats.data && monitors.data ? (
          <MentionsChart
            stats={stats.data}
            monitors={monitors.data}
            days={CHART_DAYS}
            split={chartSplit}
            onSplit={setChartSplit}
          />
        ) : stats.isLoading ? (
          <Skeleton className="h-40 rounded-xl" />
        ) : null}

        <Filters filters={filters} monitors={monitors.data ?? []} onChange={setFilters} />
        {thresholds || filters.lowRelevance ? (
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Button
              variant={filters.lowRelevance ? 'default' : 'outline'}
              size="sm"
              aria-pressed={Boolean(filters.lowRelevance)}
              onClick={() => setFilters({ lowRelevance: filters.lowRelevance ? '' : '1' })}
              data-testid="low-relevance-toggle"
            >
              Low relevance (
              {lowCount.data ? `${lowCount.data.count}${lowCount.data.more ? '+' : ''}` : '…'})
            </Button>
            <span className="text-muted-foreground">
              {filters.lowRelevance
                ? 'Alerts under their monitor’s relevance threshold: kept here, not emailed or sent.'
                : 'Alerts under a monitor’s relevance threshold are kept apart.'}
            </span>
          </div>
        ) : null}
        <SignalChips choice={filters} languages={languages} onChange={setFilters} />

        <section aria-label="Alerts feed">
          <p className="sr-only" role="status">
            {shownNote}
          </p>
          {fresh.length > 0 ? (
            <div className="sticky top-20 z-10 mb-3 flex justify-center">
              <Button
                onClick={showFresh}
                className="rounded-full shadow-lg"
                aria-label={`Show ${freshCount} new ${freshCount === 1 ? 'alert' : 'alerts'}`}
                data-testid="new-matches-pill"
              >
                {fresh.length >= FEED_PAGE_SIZE ? `${FEED_PAGE_SIZE}+` : freshCount} new
              </Button>
            </div>
          ) : null}
          {feed.isLoading ? (
            <FeedSkeleton />
          ) : feed.isError && items.length === 0 ? (
            <Alert variant="destructive" role="alert" data-testid="alerts-error">
              <p>{describeApiError(feed.error)}</p>
              <Button
                variant="outline"
                size="sm"
                className="mt-3"
                onClick={() => void feed.refetch()}
              >
                <RotateCw aria-hidden="true" /> Try again
              </Button>
            </Alert>
          ) : items.length === 0 ? (
            <EmptyState icon={Bell} title={filtered ? 'No alerts match' : 'Nothing heard yet'}>
              {filtered
                ? 'Nothing here with these filters. Clear them to see every alert.'
                : 'When a monitor matches a new post or comment, it appears here within seconds.'}
            </EmptyState>
          ) : (
            <ul
              ref={listRef}
              className="grid grid-cols-1 gap-3"
              aria-label="Alerts"
              data-testid="alerts-feed"
            >
              {groups.map((group) => (
                <li
                  key={group.key}
                  data-match-id={group.lead.match.id}
                  tabIndex={-1}
                  className="scroll-mt-24 rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-ring"
                >
                  <MatchCard
                    entry={group}
                    monitorNames={[
                      ...new Set(group.items.flatMap((item) => item.monitorIds)),
                    ].flatMap((id) => monitorNames.get(id) ?? [])}
                    now={now}
                    onOpen={() => void toggleRead(group, true)}
                    onToggleRead={() => void toggleRead(group)}
                    onDismiss={() => dismissOne(group)}
                    onFollow={
                      group.lead.match.threadId
                        ? () =>
                            void follow(group.lead.match.id).then((result) => {
                              if ('error' in result && result.error) {
                                toast.error(describeApiError(result.error));
                              } else toast.success('Following this thread for 7 days');
                            })
                        : null
                    }
                    onRate={(rating) => void rateEntry(group, rating)}
                    onCorrectSignals={(signals) => correctSignals(group, signals)}
                  />
                </li>
              ))}
            </ul>
          )}
          {feed.hasNextPage ? (
            <LoadMore
              loading={feed.isFetchingNextPage}
              onLoad={() => {
                if (!feed.isFetchingNextPage) void feed.fetchNextPage();
              }}
            />
          ) : null}
          {feed.isError && items.length > 0 ? (
            <p className="mt-3 text-sm text-destructive" role="alert">
              {describeApiError(feed.error)}
            </p>
          ) : null}
        </section>
      </div>
    </div>
  );
}

function Filters({
  filters,
  monitors,
  onChange,
}: {
  filters: MatchFilters;
  monitors: readonly { id: string; name: string; query: string }[];
  onChange: (changes: Partial<Record<keyof MatchFilters, string>>) => void;
}) {
  const ids = {
    monitor: useId(),
    source: useId(),
    search: useId(),
    unread: useId(),
    sort: useId(),
  };
  const [search, setSearch] = useState(filters.q ?? '');
  // The URL changes in a transition, so a box bound to it alone would spring back for a moment
  // after a click: it shows the click at once and follows the URL (back, forward, links) after.
  const urlUnread = Boolean(filters.unread);
  const [unread, setUnread] = useState(urlUnread);
  useEffect(() => setUnread(urlUnread), [urlUnread]);
  // Typing updates the URL a moment after the last key; the URL is the truth.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (search.trim() !== (filters.q ?? '')) onChange({ q: search.trim() });
    }, SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters.q, onChange]);

  return (
    <search
      aria-label="Filter alerts"
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto_1.4fr] lg:items-end"
    >
      <div className="grid gap-1.5">
        <Label htmlFor={ids.monitor}>Monitor</Label>
        <Select
          id={ids.monitor}
          value={filters.monitorId ?? ''}
          onChange={(event) => onChange({ monitorId: event.target.value })}
        >
          <option value="">All monitors</option>
          {monitors.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name || m.query}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.source}>Site</Label>
        <Select
          id={ids.source}
          value={filters.source ?? ''}
          onChange={(event) => onChange({ source: event.target.value })}
        >
          <option value="">All sites</option>
          {SOURCE_NAMES.map((source) => (
            <option key={source} value={source}>
              {SOURCE_LABELS[source]}
            </option>
          ))}
        </Select>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.sort}>Order</Label>
        <Select
          id={ids.sort}
          value={filters.sort ?? ''}
          onChange={(event) => onChange({ sort: event.target.value })}
        >
          <option value="">Newest first</option>
          <option value="relevance">Most relevant first</option>
        </Select>
      </div>
      <label
        htmlFor={ids.unread}
        className="flex h-10 cursor-pointer items-center gap-2 rounded-md border px-3 text-sm"
      >
        <input
          id={ids.unread}
          type="checkbox"
          className="size-4 accent-[var(--primary)]"
          checked={unread}
          onChange={(event) => {
            setUnread(event.target.checked);
            onChange({ unread: event.target.checked ? '1' : '' });
          }}
        />
        Unread only
      </label>
      <div className="grid gap-1.5">
        <Label htmlFor={ids.search}>Search</Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            aria-hidden="true"
          />
          <Input
            id={ids.search}
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="Words or intent:question"
            className="pl-9"
            maxLength={200}
          />
        </div>
      </div>
    </search>
  );
}

/** Loads the next page when it scrolls into view; a button too, for keyboards. */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const load = useRef(onLoad);
  load.current = onLoad;
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) load.current();
      },
      { rootMargin: '400px' },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="mt-4 flex justify-center" data-testid="load-more">
      <Button variant="outline" onClick={onLoad} disabled={loading} aria-busy={loading}>
        {loading ? 'Loading…' : 'Show older alerts'}
      </Button>
    </div>
  );
}

function FeedSkeleton() {
  return (
    <div
      role="status"
      aria-busy="true"
      aria-label="Loading your alerts"
      className="grid grid-cols-1 gap-3"
    >
      {[0, 1, 2, 3].map((n) => (
        <div key={n} className="rounded-xl border p-5">
          <Skeleton className="h-3 w-40" />
          <Skeleton className="mt-3 h-5 w-3/4" />
          <Skeleton className="mt-3 h-4 w-full" />
          <Skeleton className="mt-2 h-4 w-2/3" />
        </div>
      ))}
    </div>
  );
}
