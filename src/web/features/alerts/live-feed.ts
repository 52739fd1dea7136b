import { useEffect } from 'react';
import { type EventsTicket, eventsTicketSchema } from '../../../shared/live-events.ts';
import { type Match, matchSchema } from '../../../shared/match.ts';
import { api } from '../../lib/api.ts';
import { useAppDispatch, useAppSelector } from '../../lib/store-hooks.ts';

/** POST /api/events/ticket: the access token goes in Authorization, never in the stream's URL. */
const liveFeedApi = api.injectEndpoints({
  endpoints: (build) => ({
    createEventsTicket: build.mutation<EventsTicket, void>({
      query: () => ({ url: '/events/ticket', method: 'POST' }),
      transformResponse: (body: unknown) => eventsTicketSchema.parse(body),
    }),
  }),
});

type Listener = (match: Match) => void;
const listeners = new Set<Listener>();

/** Calls `listener` with each match the live feed brings; returns the function that stops it. */
export function onLiveMatch(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const REFRESH_COUNTS_MS = 2000;
const MAX_RETRY_MS = 30_000;

/**
 * Keeps one server-sent events connection to /api/events while the dashboard is open
 * (docs/decisions/0014-…). EventSource cannot send headers, and an access token must not go in a
 * URL, so each connection first asks the API for a short-lived ticket (an ordinary call: the token
 * is refreshed first when it has expired, and a refused session ends at the login page). When the
 * server ends the stream at the token's expiry (`expired`) or because the session was ended
 * elsewhere (`signed-out`), the feed asks for a new ticket at once; after an error it retries
 * with a growing delay. New matches go to `onLiveMatch` listeners; the unread count,
 * the stats and the monitors' counters are refetched (at most every 2 s).
 */
export function useLiveFeed(): void {
  const dispatch = useAppDispatch();
  const signedIn = useAppSelector((state) => state.session.authState === 'VALID_TOKEN');

  useEffect(() => {
    if (!signedIn || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retryTimer: ReturnType<typeof setTimeout> | undefined;
    let countsTimer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    let failures = 0;

    const refreshCounts = () => {
      if (countsTimer) return;
      countsTimer = setTimeout(() => {
        countsTimer = undefined;
        dispatch(
          api.util.invalidateTags([
            { type: 'Matches', id: 'UNREAD' },
            { type: 'Matches', id: 'STATS' },
            'Monitors',
          ]),
        );
      }, REFRESH_COUNTS_MS);
    };

    const connect = async () => {
      const request = dispatch(liveFeedApi.endpoints.createEventsTicket.initiate());
      const answer = await request;
      request.reset();
      if (stopped) return;
      if (answer.error) {
        // A 401 has already ended the session (the auth gate takes over); anything else is retried.
        if ('status' in answer.error && answer.error.status === 401) return;
        failures += 1;
        reconnect(Math.min(MAX_RETRY_MS, 1000 * 2 ** Math.min(failures, 5)));
        return;
      }
      source = new EventSource(`/api/events?ticket=${encodeURIComponent(answer.data.ticket)}`);
      source.addEventListener('ready', () => {
        failures = 0;
      });
      source.addEventListener('match', (event) => {
        const parsed = matchSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
        if (!parsed.success) return;
        for (const listener of listeners) listener(parsed.data);
        refreshCounts();
      });
      source.addEventListener('expired', () => reconnect(0));
      source.addEventListener('signed-out', () => reconnect(0));
      source.addEventListener('error', () => {
        failures += 1;
        reconnect(Math.min(MAX_RETRY_MS, 1000 * 2 ** Math.min(failures, 5)));
      });
    };

    const reconnect = (delayMs: number) => {
      source?.close();
      source = null;
      clearTimeout(retryTimer);
      if (!stopped) retryTimer = setTimeout(() => void connect(), delayMs);
    };

    void connect();
    return () => {
      stopped = true;
      source?.close();
      clearTimeout(retryTimer);
      clearTimeout(countsTimer);
    };
  }, [signedIn, dispatch]);
}
