import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RawRecord, ReplaySite } from '../replay-site.ts';
import { normaliseGithubEvent } from './normalise.ts';

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const createdAt = (record: RawRecord) => Date.parse(String(record.created_at ?? '')) || 0;

/** Ids of a later cycle of a looping replay: the recorded id plus this many per cycle. */
const CYCLE = 10_000_000_000;

/**
 * Event `index`: the recording with its event id, and its objects' ids, made fresh per cycle;
 * written at `at` (null: as recorded).
 */
function eventAt(records: readonly RawRecord[], index: number, at: string | null): RawRecord {
  const original = records[index % records.length] as RawRecord;
  const cycle = Math.floor(index / records.length);
  const payload = { ...(original.payload as RawRecord) };
  for (const key of ['issue', 'pull_request', 'discussion', 'comment']) {
    const object = payload[key];
    if (!isRecord(object)) continue;
    payload[key] = {
      ...object,
      ...(cycle > 0 ? { id: Number(object.id) + cycle * CYCLE } : {}),
      // Written when revealed, as the event is.
      ...(at === null ? {} : { created_at: at }),
    };
  }
  return {
    ...original,
    id: String(index + 1),
    ...(at === null ? {} : { created_at: at }),
    payload,
  };
}

/**
 * The recorded listings of repositories (`github-repo-issues-*.json`, `github-issue-comments-*`),
 * by API path (`/repos/<owner>/<name>/issues` and `…/issues/comments`), oldest change first.
 */
let repoLists = new Map<string, RawRecord[]>();

function loadRepoLists(dir: string): Map<string, RawRecord[]> {
  const lists = new Map<string, Map<string, RawRecord>>();
  for (const file of readdirSync(dir).sort()) {
    const kind = /^github-repo-issues-/u.test(file)
      ? 'issues'
      : /^github-issue-comments-/u.test(file)
        ? 'comments'
        : null;
    if (kind === null || !file.endsWith('.json')) continue;
    const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
    for (const record of Array.isArray(json) ? json : []) {
      if (!isRecord(record)) continue;
      const from = String(kind === 'issues' ? record.repository_url : record.issue_url);
      const repo = /\/repos\/([^/]+\/[^/]+)/u.exec(from)?.[1];
      if (!repo) continue;
      const route = `/repos/${repo.toLowerCase()}/issues${kind === 'comments' ? '/comments' : ''}`;
      const list = lists.get(route) ?? new Map<string, RawRecord>();
      list.set(String(record.id), record);
      lists.set(route, list);
    }
  }
  const updated = (record: RawRecord) => Date.parse(String(record.updated_at ?? '')) || 0;
  return new Map(
    [...lists].map(([route, list]) => [
      route,
      [...list.values()].sort((a, b) => updated(a) - updated(b)),
    ]),
  );
}

/**
 * A repository's listing as the replay serves it: the recorded issues or comments, oldest
 * change first, each created and changed one second after the one before, the newest when the
 * replay started; `since` filters on that time, as GitHub filters on `updated_at`.
 */
function answerRepoList(route: string, query: URLSearchParams, startedAt: number) {
  const list = repoLists.get(route.toLowerCase());
  if (list === undefined) return { status: 404, body: { message: 'Not Found' } };
  const since = Date.parse(query.get('since') ?? '') || 0;
  const perPage = Math.min(100, Math.max(1, Number(query.get('per_page')) || 30));
  const body = list
    .map((record, index) => {
      const at = new Date(startedAt - (list.length - 1 - index) * 1000)
        .toISOString()
        .replace(/\.\d{3}Z$/u, 'Z');
      return { ...record, created_at: at, updated_at: at };
    })
    .filter((record) => Date.parse(record.updated_at) >= since)
    .slice(0, perPage);
  return { status: 200, body };
}

/**
 * GitHub's public events as recorded (`github-*events*.json`: the public timeline of 2017 and
 * github3.py's events of 2018), oldest first. Events are numbered 1, 2, … in reveal order and
 * happen when revealed; `/events` answers newest first in pages, with an ETag (a conditional
 * request for an unchanged feed answers 304) and `X-Poll-Interval: 1` (GitHub asks for 60).
 * The recorded repositories' issues and comments answer at `/repos/<owner>/<name>/issues` and
 * `…/issues/comments` (`answerRepoList`).
 */
export const githubReplay: ReplaySite = {
  prefix: '/github',
  load(dir) {
    repoLists = loadRepoLists(dir);
    const byId = new Map<string, RawRecord>();
    for (const file of readdirSync(dir).sort()) {
      if (!/^github-.*events.*\.json$/u.test(file)) continue;
      const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
      for (const event of Array.isArray(json) ? json : []) {
        if (isRecord(event) && event.id !== undefined) byId.set(String(event.id), event);
      }
    }
    return [...byId.values()].sort((a, b) => createdAt(a) - createdAt(b));
  },
  keeps: (record) => normaliseGithubEvent(record).status === 'item',
  externalId(records, index) {
    const result = normaliseGithubEvent(eventAt(records, index, null));
    return result.status === 'item' ? result.item.externalId : `event/${index + 1}`;
  },
  indexOf(records, externalId) {
    const id = Number(/\/(\d+)$/u.exec(externalId)?.[1]);
    if (!Number.isFinite(id)) return -1;
    const cycle = Math.floor(id / CYCLE);
    for (let at = 0; at < records.length; at++) {
      if (githubReplay.externalId(records, cycle * records.length + at) === externalId) {
        return cycle * records.length + at;
      }
    }
    return -1;
  },
  carriesItems: (route) => route === '/events',
  answer({ path: route, query, wrongType, headers }, records, clock) {
    if (/^\/repos\/[^/]+\/[^/]+\/issues(\/comments)?$/u.test(route)) {
      // The replay's start (its first record's reveal), or now while nothing is revealed yet.
      const started = clock.revealedAt(0);
      return answerRepoList(
        route,
        query,
        Number.isFinite(started) ? Math.min(started, Date.now()) : Date.now(),
      );
    }
    if (route !== '/events') return { status: 404, body: { message: 'Not Found' } };
    const visible = records.length === 0 ? 0 : clock.revealed();
    const etag = `W/"replay-${visible}"`;
    const common = { etag, 'x-poll-interval': '1', 'x-ratelimit-remaining': '4999' };
    if (headers?.['if-none-match'] === etag) return { status: 304, body: null, headers: common };
    const perPage = Math.min(100, Math.max(1, Number(query.get('per_page')) || 30));
    const page = Math.max(1, Number(query.get('page')) || 1);
    const body: RawRecord[] = [];
    const newest = Math.min(visible, 300) > 0 ? visible - 1 - (page - 1) * perPage : -1;
    for (
      let index = newest;
      index >= 0 && index > visible - 1 - 300 && body.length < perPage;
      index--
    ) {
      const at = new Date(clock.revealedAt(index)).toISOString().replace(/\.\d{3}Z$/u, 'Z');
      const event = eventAt(records, index, at);
      body.push(wrongType && body.length === 0 ? { ...event, created_at: 42 } : event);
    }
    return { status: 200, body, headers: common };
  },
  settings: (url) => ({ GITHUB_API_URL: url }),
};
