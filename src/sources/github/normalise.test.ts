import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { normalisedItemSchema } from '../normalised-item.ts';
import { normaliseGithubEvent } from './normalise.ts';
import { githubReplay } from './replay.ts';

const RECORDED = path.join(import.meta.dirname, '..', '..', '..', 'tests', 'fixtures', 'recorded');
const read = (file: string): unknown[] =>
  JSON.parse(readFileSync(path.join(RECORDED, file), 'utf8')) as unknown[];

describe('GitHub events, as recorded', () => {
  const events = read('github-repo-events-sigmavirus24-github3py-2018-02-25.json');
  const results = events.map(normaliseGithubEvent);
  const items = results.flatMap((result) => (result.status === 'item' ? [result.item] : []));

  test('issues and pull requests opened, and comments on them; pushes, stars, forks and closes skipped', () => {
    // 7 issues and 3 pull requests opened, 45 issue comments and 9 review comments.
    expect(items.filter((item) => item.kind === 'post')).toHaveLength(10);
    expect(items.filter((item) => item.kind === 'comment')).toHaveLength(54);
    expect(results.filter((result) => result.status === 'skipped')).toHaveLength(36);
    for (const result of results) {
      if (result.status === 'skipped') expect(result.reason).toBe('unsupported-kind');
    }
    for (const item of items) {
      expect(normalisedItemSchema.parse(item)).toEqual(item);
      expect(item.community).toBe('sigmavirus24/github3.py');
      expect(item.permalink).toMatch(/^https:\/\/github\.com\/sigmavirus24\/github3\.py\//u);
    }
  });

  test('a comment on a pull request: its text, its own address, the pull request as its thread', () => {
    const comment = items.find((item) => item.externalId === 'issue-comment/368309777');
    expect(comment).toEqual({
      source: 'github',
      externalId: 'issue-comment/368309777',
      kind: 'comment',
      title: null,
      threadId: 'issue/97759309',
      threadTitle: 'Add issue and create_comment methods to pull requests',
      body: 'Testing pull request comment',
      url: null,
      permalink: 'https://github.com/sigmavirus24/github3.py/pull/423#issuecomment-368309777',
      author: 'gh3test',
      community: 'sigmavirus24/github3.py',
      parentExternalId: 'issue/97759309',
      createdAt: '2018-02-25T13:33:43.000Z',
    });
  });

  test('Markdown bodies to text: no code fences, emphasis or link syntax left', () => {
    for (const item of items) {
      expect(item.body).not.toMatch(/```|\]\(https?:|^#{1,6} /mu);
    }
  });

  test('the replay serves every recorded event once, each kept item with its own id', () => {
    const records = githubReplay.load(RECORDED);
    expect(records.length).toBe(125);
    const kept = records.flatMap((_, index) =>
      githubReplay.keeps(records[index] ?? {}) ? [githubReplay.externalId(records, index)] : [],
    );
    expect(new Set(kept).size).toBe(kept.length);
    // A later cycle: fresh ids that map back to their index.
    const later = records.length + records.findIndex((record) => githubReplay.keeps(record));
    expect(githubReplay.indexOf(records, githubReplay.externalId(records, later))).toBe(later);
  });
});

describe('GitHub events, any shape', () => {
  const user = fc.record({ login: fc.string({ minLength: 1 }) });
  const comment = fc.record({
    id: fc.nat(),
    html_url: fc.webUrl(),
    body: fc.option(fc.string()),
    user: fc.option(user),
    created_at: fc.option(fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
  });
  const thread = fc.record({
    id: fc.nat(),
    html_url: fc.webUrl(),
    title: fc.string(),
    body: fc.option(fc.string()),
    user: fc.option(user),
  });
  const event = fc.record({
    id: fc.nat().map(String),
    type: fc.constantFrom(
      'IssuesEvent',
      'IssueCommentEvent',
      'PullRequestEvent',
      'PullRequestReviewCommentEvent',
      'DiscussionEvent',
      'DiscussionCommentEvent',
      'PushEvent',
    ),
    created_at: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
    actor: user,
    repo: fc.record({ name: fc.constant('owner/name') }),
    payload: fc.record({
      action: fc.constantFrom('opened', 'created', 'closed'),
      issue: thread,
      pull_request: thread,
      discussion: thread,
      comment,
    }),
  });

  test('an item in the one shape or a typed skip, never a throw', () => {
    fc.assert(
      fc.property(event, (raw) => {
        const result = normaliseGithubEvent(raw);
        if (result.status === 'skipped') {
          expect(['unsupported-kind', 'invalid']).toContain(result.reason);
          return;
        }
        expect(normalisedItemSchema.parse(result.item)).toEqual(result.item);
        expect(result.item.community).toBe('owner/name');
        expect(result.item.kind === 'comment').toBe(result.item.parentExternalId !== null);
        expect(result.item.author).not.toBeNull();
      }),
    );
  });

  test('a body that is not an object, or an event without its repository, is skipped as invalid', () => {
    expect(normaliseGithubEvent('nope')).toMatchObject({ status: 'skipped', reason: 'invalid' });
    expect(
      normaliseGithubEvent({ id: '1', type: 'IssuesEvent', created_at: 'x', payload: {} }),
    ).toMatchObject({
      status: 'skipped',
      reason: 'invalid',
      detail: expect.stringContaining('repo'),
    });
  });
});
