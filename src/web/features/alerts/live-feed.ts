import { useEffect } from 'react';
import { type Match, matchSchema } from '../../../shared/match.ts';
import { useAppDispatch, useAppSelector } from '../../app/hooks.ts';
import { api } from '../../lib/api.ts';
import { freshAccessToken } from '../../lib/session/fresh-token.ts';

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
 * (docs/decisions/0014-…). EventSource cannot send headers, so the access token goes in the
 * query string, refreshed first when it has expired. When the server ends the stream at the
 * token's expiry (`expired`) the feed reconnects at once with a fresh token; after an error it
 * retries with a growing delay. New matches go to `onLiveMatch` listeners; the unread count,
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
      let token: string;
      try {
        token = await freshAccessToken(dispatch);
      } catch {
        return; // The session has ended; the auth gate takes over.
      }
      if (stopped) return;
      source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
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
