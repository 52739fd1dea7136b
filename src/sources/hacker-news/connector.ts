import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import { mapLimit } from '../http/map-limit.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import { normaliseHackerNewsItem } from './normalise.ts';

/**
 * Where the Hacker News walk is: the next id to read, and ids that answered `null` (an item is
 * published to `/maxitem.json` a moment before its own URL answers) with when they were first
 * seen, asked again on each call until they appear or `LATE_GIVE_UP_MS` passes.
 */
export type HackerNewsCursor = {
  readonly next: number;
  readonly late: readonly (readonly [id: number, since: number])[];
};

/** `/maxitem.json`: the newest id. */
const maxItemSchema = z.number().int().nonnegative();
const cursorSchema = z.object({
  next: z.number().int().positive(),
  late: z.array(z.tuple([z.number().int().positive(), z.number()])).default([]),
});

export type HackerNewsSourceOptions = {
  readonly http: HttpClient;
  /** e.g. https://hacker-news.firebaseio.com/v0 */
  readonly apiUrl: string;
  readonly pollIntervalMs: number;
  /** On the very first start, begin this many items below the current maxitem. */
  readonly backfillItems: number;
  /** Item requests in flight at once. */
  readonly concurrency?: number;
  /** Ids read by one call at most. */
  readonly batchSize?: number;
  readonly now?: () => number;
};

const LATE_GIVE_UP_MS = 5 * 60_000;
const LATE_MAX = 2000;
const LATE_PER_CALL = 100;

/** The official Firebase API: follow `/maxitem.json` and read every new id once. */
export function createHackerNewsSource(options: HackerNewsSourceOptions): Source<HackerNewsCursor> {
  const concurrency = options.concurrency ?? 16;
  const batchSize = options.batchSize ?? 500;
  const now = options.now ?? Date.now;
  const base = options.apiUrl.replace(/\/+$/u, '');

  return {
    name: 'hackernews',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<HackerNewsCursor>> {
      const { json } = await options.http.getJson(`${base}/maxitem.json`, { signal });
      const max = maxItemSchema.safeParse(json);
      if (!max.success) {
        throw new SourceError(
          'malformed',
          `maxitem.json is not a number: ${JSON.stringify(json).slice(0, 40)}`,
        );
      }
      const next = cursor?.next ?? Math.max(1, max.data - options.backfillItems + 1);
      const end = Math.min(max.data, next + batchSize - 1);
      const fresh: number[] = [];
      for (let id = next; id <= end; id++) fresh.push(id);
      const late = cursor?.late ?? [];
      // Late ids are asked again a hundred a call, so a backlog of them never slows the walk.
      const retried = late.slice(0, LATE_PER_CALL);
      const ids = [...retried.map(([id]) => id), ...fresh];

      const answers = await mapLimit(ids, concurrency, async (id) => {
        const { json: raw } = await options.http.getJson(`${base}/item/${id}.json`, { signal });
        return raw;
      });

      const at = now();
      const since = new Map(late.map(([id, first]) => [id, first]));
      const items: NormalisedItem[] = [];
      const skipped: Record<string, number> = {};
      const stillLate: (readonly [number, number])[] = [...late.slice(LATE_PER_CALL)];
      ids.forEach((id, i) => {
        const raw = answers[i];
        if (raw === null || raw === undefined) {
          const first = since.get(id) ?? at;
          if (at - first >= LATE_GIVE_UP_MS) countSkip(skipped, 'missing');
          else stillLate.push([id, first]);
          return;
        }
        const result = normaliseHackerNewsItem(raw);
        if (result.status === 'item') items.push(result.item);
        else countSkip(skipped, result.reason);
      });
      // A flood of ids that never appear must not grow the cursor without bound.
      const overflow = stillLate.length - LATE_MAX;
      if (overflow > 0) {
        skipped.missing = (skipped.missing ?? 0) + overflow;
        stillLate.splice(0, overflow);
      }
      return {
        items,
        skipped,
        cursor: { next: Math.max(next, end + 1), late: stillLate },
        more: end < max.data,
      };
    },
  };
}
