import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { startReplay } from '../../src/replay/replay-server.ts';
import { createMonitor, createUser } from '../support/factories.ts';
import { runIngestion, storedIds, waitFor } from '../support/ingest-harness.ts';
import { RECORDED_DIR, recordedCorpus } from '../support/replay-corpus.ts';
import { createTestDatabase } from '../support/test-database.ts';

// A monitor naming repositories (`repo:owner/name`) makes the GitHub source read their issues and
// comments through the real loop and HTTP: the replay serves the recorded listings (betamax's
// issues, github3.py's comments on issue 187) as if they had just happened.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const recorded = (file: string) =>
  JSON.parse(readFileSync(path.join(RECORDED_DIR, file), 'utf8')) as {
    id: number;
    pull_request?: unknown;
  }[];

test('the issues and comments of the repositories monitors name are stored once, with the repository as community', async () => {
  const { id: userId } = await createUser(handle.db);
  await createMonitor(handle.db, { userId, query: 'repo:BetamaxPy/Betamax cassette' });
  await createMonitor(handle.db, { userId, query: 'repo:sigmavirus24/github3.py' });
  const issues = new Set(
    [
      ...recorded('github-repo-issues-betamax-asc-2017-12-22.json'),
      ...recorded('github-repo-issues-betamax-state-all-2017-12-22-p01.json'),
    ]
      .filter((issue) => issue.pull_request === undefined)
      .map((issue) => `issue/${issue.id}`),
  );
  const comments = recorded('github-issue-comments-github3py-187-2017-12-20.json').map(
    (comment) => `issue-comment/${comment.id}`,
  );
  const replay = await startReplay({ corpus: recordedCorpus(), initial: 5, rate: 0 });
  const running = runIngestion(handle, replay, 'github');
  try {
    const fromRepos = async () =>
      (await storedIds(handle, 'github')).filter((id) => issues.has(id) || comments.includes(id));
    await waitFor(
      async () => (await fromRepos()).length === issues.size + comments.length,
      'the repositories’ issues and comments',
    );
    const stored = await fromRepos();
    expect(new Set(stored).size).toBe(stored.length);
    const rows = await handle.db.query.items.findMany({
      columns: { externalId: true, community: true, kind: true },
      where: (items, { eq }) => eq(items.source, 'github'),
    });
    const byId = new Map(rows.map((row) => [row.externalId, row]));
    expect(byId.get([...issues][0] ?? '')).toMatchObject({
      community: 'betamaxpy/betamax',
      kind: 'post',
    });
    expect(byId.get(comments[0] ?? '')).toMatchObject({
      community: 'sigmavirus24/github3.py',
      kind: 'comment',
    });
    expect(running.tracker.state).toBe('ok');
  } finally {
    await running.stop();
    await replay.close();
  }
});
