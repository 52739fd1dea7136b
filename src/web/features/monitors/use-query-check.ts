import { skipToken } from '@reduxjs/toolkit/query/react';
import { useMemo } from 'react';
import type { SourceName } from '../../../shared/sources.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { usePreviewMonitorQuery } from './monitors-api.ts';

const CHECK_DELAY_MS = 350;

/** The API's answer to a query it refuses: where and why, or only why. */
export type QueryProblem = { message: string; position?: number };

function queryProblemOf(error: unknown): QueryProblem | null {
  if (!error || typeof error !== 'object' || !('status' in error) || error.status !== 400) {
    return null;
  }
  const body = (error as { data?: { error?: { message?: string; details?: unknown } } }).data
    ?.error;
  if (!body?.message) return null;
  const details = body.details as { position?: unknown; message?: unknown } | undefined;
  if (details && typeof details.position === 'number' && typeof details.message === 'string') {
    return { message: details.message, position: details.position };
  }
  return { message: body.message };
}

/**
 * The query as it is typed, checked by the preview endpoint a moment after the last key: what it
 * would have found, or the problem the parser found (with its position). `stale` while the
 * answer is for an older text.
 */
export function useQueryCheck(query: string, sources: readonly SourceName[]) {
  const trimmed = query.trim();
  const wanted = useMemo(
    () => ({ query: trimmed, sources: [...sources].sort() }),
    [trimmed, sources],
  );
  const checked = useDebounced(wanted, CHECK_DELAY_MS);
  const preview = usePreviewMonitorQuery(
    checked.query && checked.sources.length > 0 ? checked : skipToken,
  );
  const stale = checked.query !== trimmed;
  const problem = !stale && preview.isError ? queryProblemOf(preview.error) : null;
  return {
    preview,
    stale,
    problem,
    /** The preview failed for another reason than the query (the network, the server). */
    failed: !stale && preview.isError && !problem,
  };
}

export type QueryCheck = ReturnType<typeof useQueryCheck>;
