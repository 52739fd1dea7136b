import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import { normaliseDevtoArticle, normaliseDevtoComments, parseDevtoArticle } from './normalise.ts';

/**
 * Where DEV's reading is. Article ids are not in publishing order (an article gets its id when
 * its draft is created), so, as for Lobsters, the cursor is the ids already read, newest first,
 * and a call reads pages of `/articles/latest` until it meets one of them. `threads` are the
 * young articles whose comments are followed, each with the comments already read.
 */
export type DevtoCursor = {
  readonly articles: readonly number[];
  readonly threads: readonly DevtoThread[];
};

export type DevtoThread = {
  readonly id: number;
  readonly url: string;
  readonly community: string | null;
  /** When it was published (ms since the epoch): followed while young. */
  readonly at: number;
  /** `comments_count` when its comments were last read. */
  readonly count: number;
  /** When its comments were last read (ms since the epoch), 0 for never. */
  readonly checkedAt: number;
  /** The `id_code`s of its comments already read. */
  readonly seen: readonly string[];
};

const threadSchema = z.object({
  id: z.number().int().positive(),
  url: z.string(),
  community: z.string().nullable(),
  at: z.number(),
  count: z.number().int().nonnegative(),
  checkedAt: z.number(),
  seen: z.array(z.string()),
});
const cursorSchema = z.object({
  articles: z.array(z.number().int().positive()),
  threads: z.array(threadSchema).default([]),
});

/** Article ids remembered: far more than a page, so an unpublished one never loses the place. */
const REMEMBERED = 300;
/**
 * Pages read per call when everything is new (after a long stop): 1,000 articles, about a day
 * of DEV. A first start reads one page (the backfill).
 */
const MAX_PAGES = 10;
const PER_PAGE = 100;
/** Comments of an article are followed this long after it is published. */
const YOUNG_MS = 24 * 3600_000;
/** Articles followed at once, and comment threads read per call at most. */
const MAX_THREADS = 100;
const THREADS_PER_CALL = 8;
/** A followed article that the pages read did not show is looked at again after this long. */
const RECHECK_MS = 10 * 60_000;
const SEEN_PER_THREAD = 500;

export type DevtoSourceOptions = {
  readonly http: HttpClient;
  /** e.g. https://dev.to/api */
  readonly apiUrl: string;
  readonly pollIntervalMs: number;
  readonly now?: () => number;
};

/** `/articles/latest` (newest first), and `/comments?a_id=` of young articles whose count grew. */
export function createDevtoSource(options: DevtoSourceOptions): Source<DevtoCursor> {
  const base = options.apiUrl.replace(/\/+$/u, '');
  const now = options.now ?? Date.now;

  async function readArticles(seen: readonly number[] | null, signal: AbortSignal) {
    const known = new Set(seen ?? []);
    const fresh: unknown[] = [];
    const counts = new Map<number, number>();
    let unreadable = 0;
    for (let page = 1; page <= (seen === null ? 1 : MAX_PAGES); page++) {
      const path = `/articles/latest?per_page=${PER_PAGE}&page=${page}`;
      const { json } = await options.http.getJson(`${base}${path}`, { signal });
      if (!Array.isArray(json)) throw new SourceError('malformed', `${path} is not a list`);
      let metKnown = false;
      for (const raw of json) {
        const parsed = parseDevtoArticle(raw);
        if (!parsed.ok) {
          unreadable++;
          continue;
        }
        counts.set(parsed.article.id, parsed.article.comments_count ?? 0);
        if (known.has(parsed.article.id)) metKnown = true;
        else if (!metKnown) fresh.push(raw);
      }
      if (metKnown || json.length < PER_PAGE) break;
    }
    return { fresh, counts, unreadable };
  }

  async function readComments(thread: DevtoThread, signal: AbortSignal) {
    try {
      const { json } = await options.http.getJson(`${base}/comments?a_id=${thread.id}`, {
        signal,
      });
      if (!Array.isArray(json)) throw new SourceError('malformed', '/comments is not a list');
      return json;
    } catch (error) {
      // An article taken down answers 404: stop following it rather than fail every call.
      if (error instanceof SourceError && error.status === 404) return null;
      throw error;
    }
  }

  return {
    name: 'devto',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<DevtoCursor>> {
      const at = now();
      const articles = await readArticles(cursor?.articles ?? null, signal);
      const items: NormalisedItem[] = [];
      const skipped: Record<string, number> = {};
      for (let i = 0; i < articles.unreadable; i++) countSkip(skipped, 'invalid');

      const threads = new Map((cursor?.threads ?? []).map((thread) => [thread.id, thread]));
      const freshIds: number[] = [];
      // Oldest first, as they appeared.
      for (const raw of articles.fresh.toReversed()) {
        const result = normaliseDevtoArticle(raw);
        if (result.status !== 'item') {
          countSkip(skipped, result.reason);
          continue;
        }
        const id = Number(result.item.externalId);
        freshIds.push(id);
        items.push(result.item);
        threads.set(id, {
          id,
          url: result.item.permalink,
          community: result.item.community,
          at: Date.parse(result.item.createdAt),
          count: 0,
          checkedAt: 0,
          seen: [],
        });
      }

      // Young articles only, the newest MAX_THREADS.
      const young = [...threads.values()]
        .filter((thread) => at - thread.at < YOUNG_MS)
        .sort((a, b) => b.at - a.at)
        .slice(0, MAX_THREADS);
      // Read the threads whose count grew in the pages just read, then the one looked at
      // longest ago among those the pages did not show.
      const grown = young.filter((thread) => (articles.counts.get(thread.id) ?? 0) > thread.count);
      const unseen = young
        .filter((thread) => !articles.counts.has(thread.id) && at - thread.checkedAt > RECHECK_MS)
        .sort((a, b) => a.checkedAt - b.checkedAt);
      const toRead = [...grown.slice(0, THREADS_PER_CALL - 1), ...unseen.slice(0, 1)];
      const followed = new Map(young.map((thread) => [thread.id, thread]));
      for (const thread of toRead) {
        const tree = await readComments(thread, signal);
        if (tree === null) {
          followed.delete(thread.id);
          continue;
        }
        const known = new Set(thread.seen);
        const codes: string[] = [];
        for (const result of normaliseDevtoComments(tree, thread)) {
          if (result.status !== 'item') {
            countSkip(skipped, result.reason);
            continue;
          }
          const code = result.item.externalId.slice(2);
          codes.push(code);
          if (!known.has(code)) items.push(result.item);
        }
        followed.set(thread.id, {
          ...thread,
          count: Math.max(articles.counts.get(thread.id) ?? 0, codes.length),
          checkedAt: at,
          seen: [...new Set([...codes, ...thread.seen])].slice(0, SEEN_PER_THREAD),
        });
      }

      return {
        items,
        skipped,
        cursor: {
          articles: [...freshIds.toReversed(), ...(cursor?.articles ?? [])].slice(0, REMEMBERED),
          threads: [...followed.values()],
        },
        // More pages were waiting than one call reads, or more threads grew than it reads.
        more: grown.length > THREADS_PER_CALL - 1,
      };
    },
  };
}
