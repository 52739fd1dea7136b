import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { createHttpClient } from '../http/http-client.ts';
import { createGithubSource, type GithubCursor } from './connector.ts';

// The repositories monitors name (`repo:owner/name`), read against a real HTTP server on
// loopback that answers as GitHub does from the recorded answers: betamax's issues (state=all,
// 2017) and three comments of github3.py's issue 187 (2014), filtered by `since` on `updated_at`.
const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
type Raw = { updated_at: string; created_at: string } & Record<string, unknown>;
const read = (file: string) => JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8')) as Raw[];
const LISTS: Record<string, Raw[]> = {
  '/repos/betamaxpy/betamax/issues': read(
    'github-repo-issues-betamax-state-all-2017-12-22-p01.json',
  ),
  '/repos/betamaxpy/betamax/issues/comments': [],
  '/repos/sigmavirus24/github3.py/issues': [],
  '/repos/sigmavirus24/github3.py/issues/comments': read(
    'github-issue-comments-github3py-187-2017-12-20.json',
  ),
};

const requests: string[] = [];
let server: Server;
let base = '';
beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(url.pathname);
    const list = LISTS[url.pathname];
    if (list === undefined) {
      response
        .writeHead(404, { 'content-type': 'application/json' })
        .end('{"message":"Not Found"}');
      return;
    }
    const since = Date.parse(url.searchParams.get('since') ?? '1970-01-01T00:00:00Z');
    const body = list
      .filter((raw) => Date.parse(raw.updated_at) >= since)
      .sort((a, b) => a.updated_at.localeCompare(b.updated_at))
      .slice(0, Number(url.searchParams.get('per_page')) || 30);
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  requests.length = 0;
});

let clock = 0;
const fetchNew = (repositories: string[], cursor: GithubCursor | null) =>
  createGithubSource({
    http: createHttpClient({ userAgent: 'earshot-test', attempts: 1 }),
    apiUrl: base,
    pollIntervalMs: 1000,
    repositories: async () => repositories,
    repoIntervalMs: 5 * 60_000,
    now: () => clock,
  }).fetchNew(
    // The events feed asked us to wait: only the repositories are read.
    cursor ?? { newest: '1', etag: null, notBefore: Number.POSITIVE_INFINITY, repos: [] },
    new AbortController().signal,
  );
// A restart between calls: the cursor goes through JSON, as it is stored.
const stored = (cursor: GithubCursor) =>
  createGithubSource({
    http: createHttpClient({ userAgent: 't' }),
    apiUrl: base,
    pollIntervalMs: 1,
  }).parseCursor(JSON.parse(JSON.stringify({ ...cursor, notBefore: 8.64e15 })));

test('a named repository’s issues created since the last read, once; its pull requests left to the events; a repository gone does not fail', async () => {
  clock = Date.parse('2017-10-28T18:30:00Z');
  const first = await fetchNew(['betamaxpy/betamax', 'gone/away'], null);
  // Created since 18:20 (ten minutes back): pull request 149 (18:26), issue 150 (December).
  expect(first.items.map((item) => [item.externalId, item.kind, item.community])).toEqual([
    ['issue/282660077', 'post', 'betamaxpy/betamax'],
  ]);
  expect(first.items[0]).toMatchObject({
    title: expect.any(String),
    permalink: 'https://github.com/betamaxpy/betamax/issues/150',
    author: expect.any(String),
    createdAt: '2017-12-17T00:21:05.000Z',
  });
  expect(first.skipped).toEqual({ 'unsupported-kind': 1 });
  expect(requests).toContain('/repos/gone/away/issues');
  const repo = first.cursor.repos?.find((entry) => entry.name === 'betamaxpy/betamax');
  expect(repo?.since).toBe('2017-12-20T08:29:30.000Z');

  // Within the interval nothing is asked; after it, only what changed since, and nothing is new.
  requests.length = 0;
  clock += 60_000;
  const early = await fetchNew(['betamaxpy/betamax'], stored(first.cursor));
  expect(requests).toEqual([]);
  expect(early.items).toEqual([]);
  clock += 5 * 60_000;
  const later = await fetchNew(['betamaxpy/betamax'], stored(early.cursor));
  expect(requests).toEqual([
    '/repos/betamaxpy/betamax/issues',
    '/repos/betamaxpy/betamax/issues/comments',
  ]);
  expect(later.items).toEqual([]);
  // A repository no monitor names any more is forgotten.
  expect(later.cursor.repos?.map((entry) => entry.name)).toEqual(['betamaxpy/betamax']);
});

test('a named repository’s issue comments created since the last read, as comments of the repository', async () => {
  clock = Date.parse('2014-01-08T01:50:00Z');
  const batch = await fetchNew(['sigmavirus24/github3.py'], null);
  expect(batch.items.map((item) => [item.externalId, item.kind, item.author])).toEqual([
    ['issue-comment/31799031', 'comment', 'esacteksab'],
    ['issue-comment/31799190', 'comment', 'sigmavirus24'],
    ['issue-comment/31799437', 'comment', 'esacteksab'],
  ]);
  expect(batch.items[0]).toMatchObject({
    community: 'sigmavirus24/github3.py',
    permalink: 'https://github.com/sigmavirus24/github3.py/issues/187#issuecomment-31799031',
    // Issue 187 was not among the issues read: the comment stands without a parent.
    parentExternalId: null,
  });
  for (const item of batch.items) expect(item.body).not.toMatch(/\]\(http|```/u);
});
