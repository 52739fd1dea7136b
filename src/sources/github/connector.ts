import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import { normaliseGithubEvent, parseGithubEvent } from './normalise.ts';

/**
 * Where the reading of the events feed is: the newest event id read, the feed's ETag (a 304
 * answer costs no request of the hour's quota) and the time before which GitHub asked not to
 * be polled again (`X-Poll-Interval`).
 */
export type GithubCursor = {
  readonly newest: string | null;
  readonly etag: string | null;
  readonly notBefore: number;
};

const cursorSchema = z.object({
  newest: z.string().regex(/^\d+$/u).nullable(),
  etag: z.string().nullable(),
  notBefore: z.number(),
});

/** The events API serves at most 300 events, in pages of up to 100. */
const PER_PAGE = 100;
const MAX_PAGES = 3;

export type GithubSourceOptions = {
  readonly http: HttpClient;
  /** e.g. https://api.github.com */
  readonly apiUrl: string;
  readonly token?: string | undefined;
  readonly pollIntervalMs: number;
  readonly now?: () => number;
};

/** Whether decimal id `a` is after `b`. */
const after = (a: string, b: string) => (a.length === b.length ? a > b : a.length > b.length);

/**
 * GitHub's public events (`/events`), newest first: pages are read until an event already read
 * is met. The first page is asked for with the stored ETag, so an unchanged feed answers 304;
 * `X-Poll-Interval` is honoured (the next call waits it out), and running out of the hour's
 * requests is a rate-limit fault that waits for the reset (60 an hour without `GITHUB_TOKEN`,
 * 5,000 with one).
 */
export function createGithubSource(options: GithubSourceOptions): Source<GithubCursor> {
  const base = options.apiUrl.replace(/\/+$/u, '');
  const now = options.now ?? Date.now;
  const headers = (etag: string | null) => ({
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(etag ? { 'if-none-match': etag } : {}),
  });

  return {
    name: 'github',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<GithubCursor>> {
      const empty = { items: [], skipped: {}, more: false };
      if (cursor && now() < cursor.notBefore) return { ...empty, cursor };
      const fresh: unknown[] = [];
      const skipped: Record<string, number> = {};
      let etag: string | null = cursor?.etag ?? null;
      let pollSeconds = 0;
      let newest = cursor?.newest ?? null;
      for (let page = 1; page <= (cursor?.newest ? MAX_PAGES : 1); page++) {
        const path = `/events?per_page=${PER_PAGE}&page=${page}`;
        const answer = await options.http.getJson(`${base}${path}`, {
          signal,
          headers: headers(page === 1 ? (cursor?.etag ?? null) : null),
        });
        if (page === 1) {
          pollSeconds = Number(answer.headers.get('x-poll-interval')) || 0;
          if (answer.status === 304) break;
          etag = answer.headers.get('etag');
        }
        if (!Array.isArray(answer.json))
          throw new SourceError('malformed', `${path} is not a list`);
        let metKnown = false;
        for (const raw of answer.json) {
          const parsed = parseGithubEvent(raw);
          if (!parsed.ok) {
            countSkip(skipped, 'invalid');
            continue;
          }
          if (cursor?.newest && !after(parsed.event.id, cursor.newest)) {
            metKnown = true;
            continue;
          }
          if (newest === null || after(parsed.event.id, newest)) newest = parsed.event.id;
          fresh.push(raw);
        }
        if (metKnown || answer.json.length < PER_PAGE) break;
      }
      // Oldest first, as the site wrote them.
      const items: NormalisedItem[] = [];
      for (const raw of fresh.reverse()) {
        const result = normaliseGithubEvent(raw);
        if (result.status === 'item') items.push(result.item);
        else countSkip(skipped, result.reason);
      }
      return {
        items,
        skipped,
        cursor: { newest, etag, notBefore: now() + pollSeconds * 1000 },
        more: false,
      };
    },
  };
}
