import { afterAll, beforeAll, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { createSourceInterests } from '../../src/pipeline/watched-repositories.ts';
import { createMonitor, createUser } from '../support/factories.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The repositories the GitHub source reads: those named by `repo:` in active monitors that watch
// GitHub, read from the real database, at most every 30 s.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

test('active monitors watching GitHub name the repositories; paused, negated and other sites do not', async () => {
  const { id: userId } = await createUser(handle.db);
  const db = handle.db;
  await createMonitor(db, { userId, query: 'repo:Facebook/React hydration' });
  await createMonitor(db, { userId, query: 'bug (repo:a/b OR repo:facebook/react)' });
  await createMonitor(db, { userId, query: 'repo:paused/one', paused: true });
  await createMonitor(db, { userId, query: 'crash -repo:not/this' });
  await createMonitor(db, { userId, query: 'repo:reddit/only', sources: ['reddit'] });
  await createMonitor(db, { userId, query: 'repo:gh/chosen', sources: ['github', 'reddit'] });
  await createMonitor(db, { userId, query: 'rust' });
  let clock = 0;
  const interests = createSourceInterests(db, () => clock);
  expect(await interests.repositories()).toEqual(['a/b', 'facebook/react', 'gh/chosen']);

  // A new monitor shows within 30 s, not at once (the list is read at most that often).
  await createMonitor(db, { userId, query: 'repo:later/one' });
  clock += 10_000;
  expect(await interests.repositories()).not.toContain('later/one');
  clock += 30_000;
  expect(await interests.repositories()).toContain('later/one');
});
