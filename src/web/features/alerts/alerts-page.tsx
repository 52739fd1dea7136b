import { Bell, CheckCheck, RotateCw, Search } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import type { Match } from '../../../shared/match.ts';
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
import { useNow } from '../../lib/use-now.ts';
import { useListMonitorsQuery } from '../monitors/monitors-api.ts';
import { onLiveMatch } from './live-feed.ts';
import { MatchCard } from './match-card.tsx';
import {
  type MatchFilters,
  useDismissMatchMutation,
  useListMatchesInfiniteQuery,
  useMarkAllReadMutation,
  useMatchStatsQuery,
  useSetMatchReadMutation,
} from './matches-api.ts';
import { MentionsChart } from './mentions-chart.tsx';

const CHART_DAYS = 14;
const SEARCH_DELAY_MS = 300;

const PARAM_NAMES: Record<keyof MatchFilters, string> = {
  monitorId: 'monitor',
  source: 'source',
  unread: 'unread',
  q: 'q',
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

export function AlertsPage() {
  const [filters, setFilters] = useFilters();
  const monitors = useListMonitorsQuery();
  const stats = useMatchStatsQuery({ days: CHART_DAYS });
  const feed = useListMatchesInfiniteQuery(filters);
  const [setRead] = useSetMatchReadMutation();
  const [dismiss] = useDismissMatchMutation();
  const [markAll, markingAll] = useMarkAllReadMutation();
  const now = useNow();
  const [fresh, setFresh] = useState<Match[]>([]);
  const topRef = useRef<HTMLElement>(null);

  const items = useMemo(() => feed.data?.pages.flatMap((page) => page.items) ?? [], [feed.data]);
  const monitorNames = useMemo(
    () => new Map((monitors.data ?? []).map((m) => [m.id, m.name || m.query])),
    [monitors.data],
  );

  // New matches wait behind the "N new" pill, so the feed never jumps under the reader.
  const known = useRef(new Set<string>());
  known.current = new Set(items.map((m) => m.id));
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    setFresh([]);
    const wanted = JSON.parse(filterKey) as MatchFilters;
    return onLiveMatch((match) => {
      if (wanted.monitorId && match.monitorId !== wanted.monitorId) return;
      if (wanted.source && match.source !== wanted.source) return;
      if (known.current.has(match.id)) return;
      setFresh((current) =>
        current.some((m) => m.id === match.id) ? current : [...current, match],
      );
    });
  }, [filterKey]);

  function showFresh() {
    setFresh([]);
    void feed.refetch();
    topRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    topRef.current?.focus();
  }

  async function toggleRead(match: Match, read = !match.read) {
    if (match.read === read) return;
    const result = await setRead({ id: match.id, read });
    if ('error' in result && result.error) toast.error('That could not be saved. Try again.');
  }

  async function dismissOne(match: Match) {
    const result = await dismiss(match.id);
    if ('error' in result && result.error) toast.error('That alert could not be dismissed.');
    else toast('Alert dismissed');
  }

  async function markAllRead() {
    const result = await markAll(filters.monitorId ? { monitorId: filters.monitorId } : {});
    if ('error' in result && result.error) toast.error(describeApiError(result.error));
    else toast.success(`${result.data.updated} marked read`);
  }

  const filtered = Boolean(filters.monitorId || filters.source || filters.unread || filters.q);
  return (
    <div className="max-w-4xl">
      <PageHeader
        title="Alerts"
        description="Every post and comment your monitors caught, newest first."
        actions={
          <Button
            variant="outline"
            onClick={() => void markAllRead()}
            disabled={markingAll.isLoading || items.length === 0}
          >
            <CheckCheck aria-hidden="true" /> Mark all read
          </Button>
        }
      />
      <div className="grid gap-6">
        {stats.data && monitors.data ? (
          <MentionsChart stats={stats.data} monitors={monitors.data} days={CHART_DAYS} />
        ) : stats.isLoading ? (
          <Skeleton className="h-40 rounded-xl" />
        ) : null}

        <Filters filters={filters} monitors={monitors.data ?? []} onChange={setFilters} />

        <section ref={topRef} tabIndex={-1} className="outline-none" aria-label="Alerts feed">
          {fresh.length > 0 ? (
            <div className="sticky top-20 z-10 mb-3 flex justify-center">
              <Button
                onClick={showFresh}
                className="rounded-full shadow-lg"
                data-testid="new-matches-pill"
              >
                {fresh.length} new
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
            <ul className="grid gap-3" aria-label="Alerts" data-testid="alerts-feed">
              {items.map((match) => (
                <li key={match.id}>
                  <MatchCard
                    match={match}
                    monitorName={monitorNames.get(match.monitorId)}
                    now={now}
                    onOpen={() => void toggleRead(match, true)}
                    onToggleRead={() => void toggleRead(match)}
                    onDismiss={() => void dismissOne(match)}
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
  const ids = { monitor: useId(), source: useId(), search: useId(), unread: useId() };
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
      className="grid gap-3 rounded-xl border bg-card p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[1fr_1fr_auto_1.4fr] lg:items-end"
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
            placeholder="Words in the alerts"
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
    <div role="status" aria-busy="true" aria-label="Loading your alerts" className="grid gap-3">
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
