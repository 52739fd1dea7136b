import { useEffect, useMemo } from 'react';
import type { SourceName } from '../../../shared/sources.ts';
import { useDebounced } from '../../lib/use-debounced.ts';
import { useLazyPreviewMonitorQuery } from './monitors-api.ts';

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

/** An error from a request this hook cancelled itself: not something to show. */
function isAborted(error: unknown): boolean {
  return !!error && typeof error === 'object' && 'name' in error && error.name === 'AbortError';
}

/**
 * The query as it is typed, checked by the preview endpoint a moment after the last key: what it
 * would have found, or the problem the parser found (with its position). `stale` while the
 * answer is for an older text. A newer text cancels the request for the older one (and closing
 * the form cancels the last): the server stops a cancelled preview at its next step, and a user
 * may have only two running (docs/decisions/0028-preview-budget.md).
 */
export function useQueryCheck(query: string, sources: readonly SourceName[]) {
  const trimmed = query.trim();
  const wanted = useMemo(
    () => ({ query: trimmed, sources: [...sources].sort() }),
    [trimmed, sources],
  );
  const checked = useDebounced(wanted, CHECK_DELAY_MS);
  const [trigger, preview] = useLazyPreviewMonitorQuery();
  const wantsPreview = checked.query !== '' && checked.sources.length > 0;
  useEffect(() => {
    if (!wantsPreview) return;
    const request = trigger(checked, true);
    return () => request.abort();
  }, [checked, wantsPreview, trigger]);
  const stale = checked.query !== trimmed;
  const problem = !stale && preview.isError ? queryProblemOf(preview.error) : null;
  return {
    preview,
    stale,
    problem,
    /** The preview failed for another reason than the query (the network, the server). */
    failed: !stale && preview.isError && !problem && !isAborted(preview.error),
  };
}

export type QueryCheck = ReturnType<typeof useQueryCheck>;
