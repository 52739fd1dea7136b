import { byMonitor, groupAlertEntries } from '../../../shared/alert-entries.ts';
import type {
  Match,
  MatchPage,
  MatchRating,
  MatchStats,
  UpdateMatchSignalsBody,
} from '../../../shared/match.ts';
import type { Intent, Sentiment } from '../../../shared/signals.ts';
import type { SourceName } from '../../../shared/sources.ts';
import { api } from '../../lib/api.ts';
import { UNDO_WINDOW_MS } from '../../lib/undo-window.ts';

export type { Match, MatchPage, MatchStats };

/** The feed's filters, as kept in the URL. */
export type MatchFilters = {
  monitorId?: string | undefined;
  source?: SourceName | undefined;
  unread?: boolean | undefined;
  q?: string | undefined;
  /** `relevance`: most relevant first; newest first otherwise. */
  sort?: 'relevance' | undefined;
  /**
   * true: only the matches under their monitor's relevance threshold ("Low relevance"); false:
   * all but those; unset: all (no monitor has a threshold).
   */
  lowRelevance?: boolean | undefined;
  intent?: Intent | undefined;
  sentiment?: Sentiment | undefined;
  /** ISO 639-1. */
  lang?: string | undefined;
};

export const FEED_PAGE_SIZE = 30;
/** The sidebar counts unread alerts up to this many ("100+" beyond). */
export const UNREAD_COUNT_CAP = 100;

function filterParams(filters: MatchFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.monitorId) params.set('monitorId', filters.monitorId);
  if (filters.source) params.set('source', filters.source);
  if (filters.unread) params.set('unread', 'true');
  if (filters.q) params.set('q', filters.q);
  if (filters.sort) params.set('sort', filters.sort);
  if (filters.lowRelevance !== undefined) params.set('lowRelevance', String(filters.lowRelevance));
  if (filters.intent) params.set('intent', filters.intent);
  if (filters.sentiment) params.set('sentiment', filters.sentiment);
  if (filters.lang) params.set('lang', filters.lang);
  return params;
}

function feedUrl(filters: MatchFilters, cursor: string | null, limit: number): string {
  const params = filterParams(filters);
  if (cursor) params.set('cursor', cursor);
  params.set('limit', String(limit));
  return `/matches?${params}`;
}

/**
 * The alerts of a page (an item two monitors caught counts once, a thread or a link once), and
 * whether there are more.
 */
const countAlerts = (page: MatchPage) => ({
  count: groupAlertEntries(page.items, { partition: byMonitor }).length,
  more: page.nextCursor !== null,
});

const FEED = { type: 'Matches', id: 'FEED' } as const;
const UNREAD = { type: 'Matches', id: 'UNREAD' } as const;
const STATS = { type: 'Matches', id: 'STATS' } as const;

/** The matches endpoints (docs/product.md, "Matches and alerts"), cached under the Matches tag. */
export const matchesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The feed, a page at a time (keyset cursor), newest first. */
    listMatches: build.infiniteQuery<MatchPage, MatchFilters, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (lastPage) => lastPage.nextCursor,
      },
      query: ({ queryArg, pageParam }) => feedUrl(queryArg, pageParam, FEED_PAGE_SIZE),
      providesTags: [FEED],
    }),
    /**
     * The first page of a filtered feed, fetched afresh each time and never cached: what the
     * view would show now, to count the live matches it has not shown yet.
     */
    peekFeed: build.query<MatchPage, MatchFilters>({
      query: (filters) => feedUrl(filters, null, FEED_PAGE_SIZE),
      keepUnusedDataFor: 0,
    }),
    /**
     * Unread alerts (an item two monitors caught counts once, a thread or a link once), up to
     * UNREAD_COUNT_CAP matches read.
     */
    unreadCount: build.query<{ count: number; more: boolean }, void>({
      query: () => feedUrl({ unread: true }, null, UNREAD_COUNT_CAP),
      transformResponse: countAlerts,
      providesTags: [UNREAD],
    }),
    /** The alerts under their monitor's relevance threshold, up to UNREAD_COUNT_CAP matches read. */
    lowRelevanceCount: build.query<{ count: number; more: boolean }, void>({
      query: () => feedUrl({ lowRelevance: true }, null, UNREAD_COUNT_CAP),
      transformResponse: countAlerts,
      providesTags: [FEED],
    }),
    /**
     * Rates matches (every match of an alert: each monitor that caught it learns). The rating
     * shows at once; the feed is read again after, as the monitor's other matches were scored
     * again.
     */
    rateMatches: build.mutation<void, { ids: readonly string[]; rating: MatchRating | null }>({
      async queryFn({ ids, rating }, _api, _extra, baseQuery) {
        for (const id of ids) {
          const result = await baseQuery({
            url: `/matches/${id}/feedback`,
            method: 'PUT',
            body: { rating },
          });
          if (result.error) return { error: result.error };
        }
        return { data: undefined };
      },
      onQueryStarted: ({ ids, rating }, lifecycle) =>
        patchEveryFeed(lifecycle, (draft) => {
          for (const page of draft.pages)
            for (const match of page.items) if (ids.includes(match.id)) match.rating = rating;
        }),
      invalidatesTags: [FEED],
    }),
    matchStats: build.query<MatchStats, { days: number; by?: 'monitor' | 'sentiment' }>({
      query: ({ days, by = 'monitor' }) => `/matches/stats?days=${days}&by=${by}`,
      providesTags: [STATS],
    }),
    /** Read or unread shows at once in every cached feed, and rolls back if the API refuses. */
    setMatchRead: build.mutation<Match, { id: string; read: boolean }>({
      query: ({ id, read }) => ({ url: `/matches/${id}`, method: 'PATCH', body: { read } }),
      onQueryStarted: ({ id, read }, lifecycle) =>
        patchEveryFeed(lifecycle, (draft) => {
          for (const page of draft.pages)
            for (const match of page.items) if (match.id === id) match.read = read;
        }),
      invalidatesTags: [UNREAD],
    }),
    /** Every match of the filters as CSV text (GET /api/matches/export), to save as a file. */
    exportMatchesCsv: build.mutation<string, MatchFilters>({
      query: (filters) => ({
        url: `/matches/export?format=csv&${filterParams(filters)}`,
        responseHandler: 'text',
      }),
    }),
    markAllRead: build.mutation<{ updated: number }, { monitorId?: string }>({
      query: (body) => ({ url: '/matches/mark-read', method: 'POST', body }),
      invalidatesTags: [FEED, UNREAD],
    }),
    /**
     * Dismiss with undo, as a monitor's delete: the alert (every match of its item) leaves every
     * feed at once, and the DELETEs are sent only when the undo window has passed. Aborting the
     * request in the window (Undo) puts the alert back, as does a refusal of the API. Leaving the
     * page does not cancel it.
     */
    /** Follows the thread of a match for 7 days (its new comments come as alerts). */
    followThread: build.mutation<{ following: boolean; until: string | null }, string>({
      query: (id) => ({ url: `/matches/${id}/follow`, method: 'POST' }),
    }),
    dismissMatch: build.mutation<void, readonly string[]>({
      async queryFn(ids, { signal }, _extra, baseQuery) {
        if (!(await waitUnlessAborted(UNDO_WINDOW_MS, signal))) {
          return { error: { status: 'CUSTOM_ERROR', error: 'Undone' } };
        }
        for (const id of ids) {
          const result = await baseQuery({ url: `/matches/${id}`, method: 'DELETE' });
          if (result.error) return { error: result.error };
        }
        return { data: undefined };
      },
      onQueryStarted: (ids, lifecycle) =>
        patchEveryFeed(lifecycle, (draft) => {
          for (const page of draft.pages)
            page.items = page.items.filter((m) => !ids.includes(m.id));
        }),
      invalidatesTags: (_result, error) => (error ? [] : [UNREAD, STATS]),
    }),
    /** The user's correction of an alert's hints; the feed is read again (filters may differ). */
    correctMatchSignals: build.mutation<Match, { id: string; signals: UpdateMatchSignalsBody }>({
      query: ({ id, signals }) => ({ url: `/matches/${id}/signals`, method: 'PUT', body: signals }),
      invalidatesTags: (_result, error) => (error ? [] : [FEED, STATS]),
    }),
  }),
});

export const {
  useListMatchesInfiniteQuery,
  useLazyPeekFeedQuery,
  useUnreadCountQuery,
  useLowRelevanceCountQuery,
  useRateMatchesMutation,
  useMatchStatsQuery,
  useSetMatchReadMutation,
  useExportMatchesCsvMutation,
  useMarkAllReadMutation,
  useDismissMatchMutation,
  useFollowThreadMutation,
  useCorrectMatchSignalsMutation,
} = matchesApi;

type FeedPages = { pages: MatchPage[] };
type MutationLifecycle = {
  dispatch: (action: unknown) => unknown;
  getState: () => unknown;
  queryFulfilled: Promise<unknown>;
};

/**
 * An optimistic change to every cached feed (each filter's pages): shown at once, undone if the
 * API refuses.
 */
async function patchEveryFeed(
  { dispatch, getState, queryFulfilled }: MutationLifecycle,
  recipe: (draft: FeedPages) => void,
): Promise<void> {
  const patches = matchesApi.util
    .selectInvalidatedBy(getState() as never, [FEED])
    .filter((entry) => entry.endpointName === 'listMatches')
    .map(
      (entry) =>
        dispatch(
          matchesApi.util.updateQueryData(
            'listMatches',
            entry.originalArgs as MatchFilters,
            recipe,
          ),
        ) as { undo: () => void },
    );
  try {
    await queryFulfilled;
  } catch {
    for (const patch of patches) patch.undo();
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function waitUnlessAborted(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => resolve(true), ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(false);
      },
      { once: true },
    );
  });
}
