import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { HttpClient, JsonResponse } from '../http/http-client.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import { listRedditThings, normaliseRedditThing, redditThingId } from './normalise.ts';
import type { AppOnlyToken } from './oauth.ts';

/**
 * The last post (t3) and comment (t1) id read, as numbers (Reddit ids are base 36). Reddit
 * numbers each kind in one site-wide sequence, so the walk asks `/api/info` for the next hundred
 * ids of each (docs/decisions/0011-reddit-ingestion.md).
 */
export type RedditCursor = { readonly t3: number | null; readonly t1: number | null };

// null: no item of that kind seen yet (a new site, or the replay before its first comment).
const cursorSchema = z.object({
  t3: z.number().int().nonnegative().nullable(),
  t1: z.number().int().nonnegative().nullable(),
});

const KINDS = ['t1', 't3'] as const;
type Kind = (typeof KINDS)[number];

/** `/api/info` takes at most 100 fullnames. */
const WINDOW = 100;
/** Empty windows in a row before the walk checks whether it sits in a gap of vanished ids. */
const EMPTY_BEFORE_PROBE = 2;

export type RedditSourceOptions = {
  readonly http: HttpClient;
  readonly token: AppOnlyToken;
  /** e.g. https://oauth.reddit.com */
  readonly apiUrl: string;
  readonly pollIntervalMs: number;
  /** On the very first start, begin this many ids below the newest of each kind. */
  readonly backfillItems?: number;
  readonly now?: () => number;
};

export const toBase36 = (n: number): string => n.toString(36);

/** New posts and comments site-wide, by walking the sequential ids with `/api/info`. */
export function createRedditSource(options: RedditSourceOptions): Source<RedditCursor> {
  const base = options.apiUrl.replace(/\/+$/u, '');
  const now = options.now ?? Date.now;
  const backfill = options.backfillItems ?? WINDOW;
  const empty: Record<Kind, number> = { t1: 0, t3: 0 };
  // The newest id of each kind the listings last showed: a window wholly below it that comes
  // back empty is a gap of vanished ids, skipped at once.
  const head: Record<Kind, number> = { t1: 0, t3: 0 };
  // X-Ratelimit-*: the earliest time of the next request, spreading what is left evenly.
  let nextAt = 0;

  async function get(path: string, signal: AbortSignal): Promise<JsonResponse> {
    for (let renewed = false; ; renewed = true) {
      const wait = nextAt - now();
      if (wait > 0) await sleep(wait, undefined, { signal });
      const token = await options.token.get(signal);
      try {
        const response = await options.http.getJson(`${base}${path}`, {
          headers: { authorization: `Bearer ${token}` },
          signal,
        });
        obeyRateLimit(response.headers);
        return response;
      } catch (error) {
        if (error instanceof SourceError && error.status === 401 && !renewed) {
          options.token.invalidate();
          continue;
        }
        if (error instanceof SourceError && error.kind === 'rate-limited') {
          nextAt = now() + (error.retryAfterMs ?? 60_000);
        }
        throw error;
      }
    }
  }

  function obeyRateLimit(headers: Headers): void {
    const remaining = Number(headers.get('x-ratelimit-remaining'));
    const reset = Number(headers.get('x-ratelimit-reset'));
    if (
      !headers.has('x-ratelimit-remaining') ||
      !Number.isFinite(remaining) ||
      !Number.isFinite(reset)
    ) {
      return;
    }
    const resetMs = reset * 1000;
    // Spread what is left of the window evenly over what is left of its time.
    nextAt = now() + (remaining < 1 ? resetMs : resetMs / remaining);
  }

  /** The newest id of a kind, from the site-wide listing; null when it lists nothing. */
  async function newest(kind: Kind, signal: AbortSignal): Promise<number | null> {
    const path = kind === 't3' ? '/r/all/new' : '/r/all/comments';
    const { json } = await get(`${path}?limit=1&raw_json=1`, signal);
    const things = listRedditThings(json);
    if (things.length === 0) return null;
    const id = redditThingId(things[0]);
    if (id === null) throw new SourceError('malformed', `${path} listed nothing readable`);
    head[kind] = Math.max(head[kind], id);
    return id;
  }

  return {
    name: 'reddit',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<RedditCursor>> {
      const at: Record<Kind, number | null> = { t1: cursor?.t1 ?? null, t3: cursor?.t3 ?? null };
      const items: NormalisedItem[] = [];
      const skipped: Record<string, number> = {};
      let more = false;
      for (const kind of KINDS) {
        if (at[kind] === null) {
          // First start: begin a little below the newest id, never at the start of time.
          const head = await newest(kind, signal);
          if (head === null) continue;
          at[kind] = Math.max(0, head - backfill);
        }
        const from = at[kind] as number;
        const names = Array.from({ length: WINDOW }, (_, i) => `${kind}_${toBase36(from + 1 + i)}`);
        const { json } = await get(`/api/info?id=${names.join(',')}&raw_json=1`, signal);
        let last = from;
        for (const thing of listRedditThings(json)) {
          const result = normaliseRedditThing(thing);
          const id = redditThingId(thing) ?? NaN;
          if (Number.isFinite(id) && id > from && id <= from + WINDOW) last = Math.max(last, id);
          if (result.status === 'item') items.push(result.item);
          else countSkip(skipped, result.reason);
        }
        if (last > from) {
          empty[kind] = 0;
          at[kind] = last;
          if (last === from + WINDOW) more = true;
          continue;
        }
        // Nothing in the next hundred ids: either nothing new yet, or a run of ids that will
        // never answer (removed at once, private communities). The newest listing tells which.
        empty[kind]++;
        if (head[kind] <= from + WINDOW && empty[kind] >= EMPTY_BEFORE_PROBE) {
          empty[kind] = 0;
          await newest(kind, signal);
        }
        if (head[kind] > from + WINDOW) {
          at[kind] = from + WINDOW;
          more = true;
        }
      }
      return { items, skipped, cursor: { t1: at.t1, t3: at.t3 }, more };
    },
  };
}
