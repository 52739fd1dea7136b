import { z } from 'zod';
import { describeIssue, type NormaliseResult, skipped } from '../normalised-item.ts';
import { markdownToText } from '../text/markdown-to-text.ts';

// GitHub's events API (https://docs.github.com/rest/activity/events), as recorded in 2017 and
// 2018 (tests/fixtures/recorded/github-*events*.json). Of the event types, the ones that carry
// words people write: an issue or pull request opened, a comment on either, a review comment,
// a discussion or its comment. The rest (pushes, stars, forks, closes) are skipped.

const userSchema = z.object({ login: z.string().min(1) }).passthrough();
const idSchema = z.union([z.number().int(), z.string().min(1)]).transform(String);

const threadSchema = z
  .object({
    id: idSchema,
    html_url: z.string().min(1),
    title: z.string(),
    body: z.string().nullish(),
    user: userSchema.nullish(),
    created_at: z.string().nullish(),
  })
  .passthrough();

const commentSchema = z
  .object({
    id: idSchema,
    html_url: z.string().min(1),
    body: z.string().nullish(),
    user: userSchema.nullish(),
    created_at: z.string().nullish(),
  })
  .passthrough();

const eventSchema = z
  .object({
    id: idSchema,
    type: z.string(),
    created_at: z.string(),
    actor: userSchema.nullish(),
    repo: z.object({ name: z.string().min(1) }).passthrough(),
    payload: z.record(z.string(), z.unknown()),
  })
  .passthrough();
export type GithubEvent = z.infer<typeof eventSchema>;

/** An event read from its JSON, or why not. */
export function parseGithubEvent(
  raw: unknown,
): { ok: true; event: GithubEvent } | { ok: false; detail: string } {
  const parsed = eventSchema.safeParse(raw);
  return parsed.success
    ? { ok: true, event: parsed.data }
    : { ok: false, detail: describeIssue(parsed.error) };
}

/** What each kept event type holds: the thread it opens, or the comment and the thread it is on. */
const KEPT: Record<string, { action: string; thread: string; comment?: string; prefix: string }> = {
  IssuesEvent: { action: 'opened', thread: 'issue', prefix: 'issue' },
  PullRequestEvent: { action: 'opened', thread: 'pull_request', prefix: 'pull' },
  DiscussionEvent: { action: 'created', thread: 'discussion', prefix: 'discussion' },
  IssueCommentEvent: {
    action: 'created',
    thread: 'issue',
    comment: 'comment',
    prefix: 'issue-comment',
  },
  PullRequestReviewCommentEvent: {
    action: 'created',
    thread: 'pull_request',
    comment: 'comment',
    prefix: 'review-comment',
  },
  DiscussionCommentEvent: {
    action: 'created',
    thread: 'discussion',
    comment: 'comment',
    prefix: 'discussion-comment',
  },
};

/** The thread's id as Earshot stores it: an issue, a pull request or a discussion. */
const threadExternalId = (prefix: string, id: string) => `${prefix}/${id}`;

const isoOf = (text: string | null | undefined): string | null => {
  if (!text) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at).toISOString();
};

/**
 * One event of GitHub's events API to an item: an opened issue, pull request or discussion is a
 * post (its title, its body as text), a comment on one is a comment. The repository
 * (`owner/name`) is the community. Ids are the object's, not the event's, so the same issue
 * read from two feeds is stored once.
 */
export function normaliseGithubEvent(raw: unknown): NormaliseResult {
  const parsed = parseGithubEvent(raw);
  if (!parsed.ok) return skipped('invalid', parsed.detail);
  const event = parsed.event;
  const kept = KEPT[event.type];
  if (!kept) return skipped('unsupported-kind', `${event.type} ${event.id}`);
  if (event.payload.action !== kept.action) {
    return skipped('unsupported-kind', `${event.type} ${String(event.payload.action)}`);
  }
  const thread = threadSchema.safeParse(event.payload[kept.thread]);
  if (!thread.success) {
    return skipped('invalid', `${kept.thread}: ${describeIssue(thread.error)}`);
  }
  const threadPrefix = kept.thread === 'pull_request' ? 'pull' : kept.thread;
  const eventAt = isoOf(event.created_at);
  if (eventAt === null) return skipped('invalid', `created_at: not a date (${event.created_at})`);
  const parentId = threadExternalId(threadPrefix, thread.data.id);
  const base = { source: 'github' as const, community: event.repo.name, url: null };
  if (kept.comment === undefined) {
    return {
      status: 'item',
      item: {
        ...base,
        externalId: parentId,
        kind: 'post',
        title: thread.data.title,
        threadTitle: null,
        body: markdownToText(thread.data.body ?? ''),
        permalink: thread.data.html_url,
        author: thread.data.user?.login ?? event.actor?.login ?? null,
        parentExternalId: null,
        createdAt: isoOf(thread.data.created_at) ?? eventAt,
      },
    };
  }
  const comment = commentSchema.safeParse(event.payload[kept.comment]);
  if (!comment.success) return skipped('invalid', `comment: ${describeIssue(comment.error)}`);
  return {
    status: 'item',
    item: {
      ...base,
      externalId: threadExternalId(kept.prefix, comment.data.id),
      kind: 'comment',
      title: null,
      threadTitle: thread.data.title,
      threadId: parentId,
      body: markdownToText(comment.data.body ?? ''),
      permalink: comment.data.html_url,
      author: comment.data.user?.login ?? event.actor?.login ?? null,
      parentExternalId: parentId,
      createdAt: isoOf(comment.data.created_at) ?? eventAt,
    },
  };
}

// A repository's issues (`GET /repos/{owner}/{repo}/issues`) and issue comments
// (`GET /repos/{owner}/{repo}/issues/comments`), as recorded from github3.py's cassettes in 2017
// (tests/fixtures/recorded/github-repo-issues-*.json, github-issue-comments-*.json): the objects
// of the events' payloads, without the event around them.

const repoIssueSchema = threadSchema.extend({ number: z.number().int().positive() });
const repoCommentSchema = commentSchema.extend({ issue_url: z.string().optional() });

/** The issue's number from a comment's `issue_url` (`…/repos/o/r/issues/187`), or null. */
export function issueNumberOf(raw: unknown): number | null {
  const parsed = repoCommentSchema.safeParse(raw);
  const number = /\/issues\/(\d+)$/u.exec(parsed.success ? (parsed.data.issue_url ?? '') : '');
  return number ? Number(number[1]) : null;
}

/** An issue of a repository's listing as read by its number: its id and title, for its comments. */
export function parseGithubRepoIssue(
  raw: unknown,
): { readonly number: number; readonly id: string; readonly title: string } | null {
  const parsed = repoIssueSchema.safeParse(raw);
  return parsed.success
    ? { number: parsed.data.number, id: parsed.data.id, title: parsed.data.title }
    : null;
}

/**
 * An issue of a repository's listing as a post (`issue/<id>`, as the events store it). A pull
 * request in the listing is skipped: the events store it by its pull request's id
 * (`pull/<id>`), which the listing does not give, and storing it by its issue id would double it.
 */
export function normaliseGithubRepoIssue(repo: string, raw: unknown): NormaliseResult {
  const parsed = repoIssueSchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const issue = parsed.data;
  if (issue.pull_request !== undefined)
    return skipped('unsupported-kind', `pull request ${issue.id}`);
  const createdAt = isoOf(issue.created_at);
  if (createdAt === null) return skipped('invalid', 'created_at: not a date');
  return {
    status: 'item',
    item: {
      source: 'github',
      externalId: threadExternalId('issue', issue.id),
      kind: 'post',
      title: issue.title,
      body: markdownToText(issue.body ?? ''),
      url: null,
      permalink: issue.html_url,
      author: issue.user?.login ?? null,
      community: repo,
      parentExternalId: null,
      threadTitle: null,
      createdAt,
    },
  };
}

/**
 * An issue comment of a repository as a comment (`issue-comment/<id>`, as the events store it);
 * its parent is its issue when the issue was read (the listing names it only by number).
 */
export function normaliseGithubRepoComment(
  repo: string,
  raw: unknown,
  thread: { readonly id: string; readonly title: string } | null,
): NormaliseResult {
  const parsed = repoCommentSchema.safeParse(raw);
  if (!parsed.success) return skipped('invalid', describeIssue(parsed.error));
  const comment = parsed.data;
  const createdAt = isoOf(comment.created_at);
  if (createdAt === null) return skipped('invalid', 'created_at: not a date');
  return {
    status: 'item',
    item: {
      source: 'github',
      externalId: threadExternalId('issue-comment', comment.id),
      kind: 'comment',
      title: null,
      body: markdownToText(comment.body ?? ''),
      url: null,
      permalink: comment.html_url,
      author: comment.user?.login ?? null,
      community: repo,
      parentExternalId: thread ? threadExternalId('issue', thread.id) : null,
      threadTitle: thread?.title ?? null,
      threadId: thread ? threadExternalId('issue', thread.id) : null,
      createdAt,
    },
  };
}
