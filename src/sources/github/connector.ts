import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import {
  issueNumberOf,
  normaliseGithubEvent,
  normaliseGithubRepoComment,
  normaliseGithubRepoIssue,
  parseGithubEvent,
  parseGithubRepoIssue,
} from './normalise.ts';

/**
 * Where the reading of the events feed is: the newest event id read, the feed's ETag (a 304
 * answer costs no request of the hour's quota) and the time before which GitHub asked not to
 * be polled again (`X-Poll-Interval`).
 */
export type GithubCursor = {
  readonly newest: string | null;
  readonly etag: string | null;
  readonly notBefore: number;
  /** The repositories monitors name (`repo:owner/name`), each read since its last poll. */
  readonly repos?: readonly RepoCursor[];
};

/**
 * One watched repository: `since` (ISO 8601) is the newest `updated_at` read, where the next
 * read starts; `checkedAt` when it was last read (ms since the epoch); `threads` its issues read
 * (number, id, title), so that a comment, which names its issue by number, finds its parent.
 */
export type RepoCursor = {
  readonly name: string;
  readonly since: string;
  readonly checkedAt: number;
  readonly threads: readonly (readonly [number: number, id: string, title: string])[];
};

const repoCursorSchema = z.object({
  name: z.string(),
  since: z.string(),
  checkedAt: z.number(),
  threads: z.array(z.tuple([z.number().int(), z.string(), z.string()])),
});
const cursorSchema = z.object({
  newest: z.string().regex(/^\d+$/u).nullable(),
  etag: z.string().nullable(),
  notBefore: z.number(),
  repos: z.array(repoCursorSchema).default([]),
});

/** Repositories read per call at most, the least recently read first. */
const REPOS_PER_CALL = 10;
/** A newly named repository is read from this long ago. */
const REPO_BACKFILL_MS = 10 * 60_000;
/** Issues remembered per repository, for their comments' parent and thread title. */
const THREADS_PER_REPO = 200;

/** The events API serves at most 300 events, in pages of up to 100. */
const PER_PAGE = 100;
const MAX_PAGES = 3;

export type GithubSourceOptions = {
  readonly http: HttpClient;
  /** e.g. https://api.github.com */
  readonly apiUrl: string;
  readonly token?: string | undefined;
  readonly pollIntervalMs: number;
  /**
   * The repositories monitors name (`owner/name`, lower case), asked before each call; each is
   * read at most every `repoIntervalMs`.
   */
  readonly repositories?: () => Promise<readonly string[]>;
  /** How often one repository is read; by default 5 minutes, 1 with a token. */
  readonly repoIntervalMs?: number;
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
  const repoIntervalMs = options.repoIntervalMs ?? (options.token ? 60_000 : 5 * 60_000);
  const headers = (etag: string | null) => ({
    accept: 'application/vnd.github+json',
    'x-github-api-version': '2022-11-28',
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    ...(etag ? { 'if-none-match': etag } : {}),
  });

  async function readEvents(cursor: GithubCursor | null, signal: AbortSignal) {
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
      if (!Array.isArray(answer.json)) throw new SourceError('malformed', `${path} is not a list`);
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
    return { items, skipped, newest, etag, notBefore: now() + pollSeconds * 1000 };
  }

  /** A list of a repository (`/repos/{name}/…`), or null when the repository is gone or private. */
  async function readList(path: string, signal: AbortSignal): Promise<unknown[] | null> {
    try {
      const answer = await options.http.getJson(`${base}${path}`, {
        signal,
        headers: headers(null),
      });
      if (!Array.isArray(answer.json)) throw new SourceError('malformed', `${path} is not a list`);
      return answer.json;
    } catch (error) {
      if (error instanceof SourceError && error.status === 404) return null;
      throw error;
    }
  }

  /**
   * The issues and issue comments of the repositories monitors name, each read since its last
   * read (`since`, by `updated_at`), at most every `repoIntervalMs`; of what changed since, only
   * what was created since is new.
   */
  async function readRepos(before: readonly RepoCursor[], signal: AbortSignal) {
    const items: NormalisedItem[] = [];
    const skipped: Record<string, number> = {};
    const wanted = options.repositories ? await options.repositories() : [];
    const known = new Map(before.map((repo) => [repo.name, repo]));
    const at = now();
    const cursors = new Map<string, RepoCursor>();
    for (const name of wanted) {
      cursors.set(
        name,
        known.get(name) ?? {
          name,
          since: new Date(at - REPO_BACKFILL_MS).toISOString(),
          checkedAt: 0,
          threads: [],
        },
      );
    }
    const due = [...cursors.values()]
      .filter((repo) => at - repo.checkedAt >= repoIntervalMs)
      .sort((a, b) => a.checkedAt - b.checkedAt);
    let more = due.length > REPOS_PER_CALL;
    for (const repo of due.slice(0, REPOS_PER_CALL)) {
      const query = `since=${encodeURIComponent(repo.since)}&sort=updated&direction=asc&per_page=${PER_PAGE}`;
      const issues = await readList(`/repos/${repo.name}/issues?state=all&${query}`, signal);
      const comments = await readList(`/repos/${repo.name}/issues/comments?${query}`, signal);
      const since = Date.parse(repo.since);
      const isNew = (raw: unknown) =>
        Date.parse(String((raw as { created_at?: unknown }).created_at)) >= since;
      let newest = since;
      const touch = (raw: unknown) => {
        const updated = Date.parse(String((raw as { updated_at?: unknown }).updated_at));
        if (updated > newest) newest = updated;
      };
      const threads = new Map(repo.threads.map(([number, id, title]) => [number, { id, title }]));
      for (const raw of issues ?? []) {
        touch(raw);
        const issue = parseGithubRepoIssue(raw);
        if (issue) threads.set(issue.number, { id: issue.id, title: issue.title });
        if (!isNew(raw)) continue;
        const result = normaliseGithubRepoIssue(repo.name, raw);
        if (result.status === 'item') items.push(result.item);
        else countSkip(skipped, result.reason);
      }
      for (const raw of comments ?? []) {
        touch(raw);
        if (!isNew(raw)) continue;
        const number = issueNumberOf(raw);
        const result = normaliseGithubRepoComment(
          repo.name,
          raw,
          number === null ? null : (threads.get(number) ?? null),
        );
        if (result.status === 'item') items.push(result.item);
        else countSkip(skipped, result.reason);
      }
      // A full page: the rest is read at once, not after the interval.
      const full = (issues?.length ?? 0) >= PER_PAGE || (comments?.length ?? 0) >= PER_PAGE;
      more ||= full;
      cursors.set(repo.name, {
        name: repo.name,
        since: new Date(newest).toISOString(),
        checkedAt: full ? repo.checkedAt : at,
        threads: [...threads.entries()]
          .slice(-THREADS_PER_REPO)
          .map(([number, thread]) => [number, thread.id, thread.title] as const),
      });
    }
    return { items, skipped, cursors: [...cursors.values()], more };
  }

  return {
    name: 'github',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<GithubCursor>> {
      const events =
        cursor && now() < cursor.notBefore
          ? {
              items: [],
              skipped: {},
              newest: cursor.newest,
              etag: cursor.etag,
              notBefore: cursor.notBefore,
            }
          : await readEvents(cursor, signal);
      const repos = await readRepos(cursor?.repos ?? [], signal);
      const skipped: Record<string, number> = { ...events.skipped };
      for (const [reason, n] of Object.entries(repos.skipped))
        skipped[reason] = (skipped[reason] ?? 0) + n;
      return {
        items: [...events.items, ...repos.items],
        skipped,
        cursor: {
          newest: events.newest,
          etag: events.etag,
          notBefore: events.notBefore,
          repos: repos.cursors,
        },
        more: repos.more,
      };
    },
  };
}
