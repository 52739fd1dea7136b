import { useEffect, useRef, useState } from 'react';
import type { Match } from '../../../shared/match.ts';
import { onLiveMatch } from './live-feed.ts';
import { type MatchFilters, useLazyPeekFeedQuery } from './matches-api.ts';

/** Live matches come in bursts: one look at the feed for a burst. */
const PEEK_DELAY_MS = 300;

/** Whether match id `a` is newer than `b` (ids are increasing decimal integers). */
function isNewer(a: string, b: string): boolean {
  return a.length !== b.length ? a.length > b.length : a > b;
}

/**
 * The live matches this view has not shown yet, counted as the view would show them: a live
 * match wakes a look at the first page of the filtered feed, where the server applies every
 * filter (the search included), and the matches newer than any shown are fresh. The feed itself
 * stays as it is until the reader asks for them, so it never jumps under the reader.
 */
export function useFreshMatches(filters: MatchFilters, shown: readonly Match[]) {
  const [peek] = useLazyPeekFeedQuery();
  const [fresh, setFresh] = useState<Match[]>([]);
  const filterKey = JSON.stringify(filters);
  // The newest match shown in this view so far: one dismissed meanwhile is not new again.
  const newest = useRef<{ key: string; id: string | null }>({ key: filterKey, id: null });
  if (newest.current.key !== filterKey) newest.current = { key: filterKey, id: null };
  for (const match of shown) {
    if (newest.current.id === null || isNewer(match.id, newest.current.id)) {
      newest.current.id = match.id;
    }
  }

  useEffect(() => {
    setFresh([]);
    const wanted = JSON.parse(filterKey) as MatchFilters;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let active = true;
    const look = async () => {
      const { data } = await peek(wanted);
      if (!active || !data) return;
      const since = newest.current.id;
      setFresh(data.items.filter((match) => since === null || isNewer(match.id, since)));
    };
    const stop = onLiveMatch((match) => {
      // What the view surely leaves out needs no look.
      if (wanted.monitorId && match.monitorId !== wanted.monitorId) return;
      if (wanted.source && match.source !== wanted.source) return;
      clearTimeout(timer);
      timer = setTimeout(() => void look(), PEEK_DELAY_MS);
    });
    return () => {
      active = false;
      stop();
      clearTimeout(timer);
    };
  }, [filterKey, peek]);

  return { fresh, clear: () => setFresh([]) };
}
