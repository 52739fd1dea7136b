import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, expect, test } from 'vitest';
import { followThread } from '../../src/core/matches/follow-thread.ts';
import { matches } from '../../src/db/schema/matches.ts';
import { normaliseLobstersResponse } from '../../src/sources/lobsters/normalise.ts';
import type { DeliveryHarness } from '../support/delivery-harness.ts';
import { startDeliverySuite } from '../support/delivery-suite.ts';

/**
 * Thread follow-up (issue 25, decision 0038), on the recorded Lobsters story tdfoqh: after
 * "follow this thread" on the story's match, its comments come as alerts without the monitor's
 * words for 7 days, and stop after. The comments are replayed at chosen times on the manual clock.
 */
const suite = startDeliverySuite();
let h: DeliveryHarness;
beforeAll(() => {
  h = suite.h();
});

const DAY = 86_400_000;

test('replies without the words arrive for a followed thread, and stop after 7 days', async () => {
  const [story, ...comments] = normaliseLobstersResponse(
    JSON.parse(
      readFileSync(
        new URL('../fixtures/recorded/lobsters-story-tdfoqh-2022-07-22.json', import.meta.url),
        'utf8',
      ),
    ),
  ).flatMap((result) => (result.status === 'item' ? [result.item] : []));
  if (!story) throw new Error('no story');
  expect(comments).toHaveLength(10);
  const start = Date.parse(story.createdAt);
  h.clock.set(start);
  const user = await h.addUser();
  // Only the title: the comments do not hold it.
  const monitor = await h.addMonitor(user.id, 'title:ranking');
  const replay = (index: number, at: number) => ({
    ...comments[index],
    externalId: `${comments[index]?.externalId}-follow`,
    createdAt: new Date(at).toISOString(),
  });
  await h.publishItems([story]);
  // A comment before following: no match.
  await h.publishItems([replay(0, start + 3_600_000) as (typeof comments)[number]]);
  const stored = () =>
    h.db
      .select({ id: matches.id, kind: matches.kind, snippet: matches.snippet })
      .from(matches)
      .where(eq(matches.monitorId, monitor.id));
  const [storyMatch, ...none] = await stored();
  expect(none).toEqual([]);

  const followed = await followThread(
    { db: h.db },
    { userId: user.id, matchId: String(storyMatch?.id), follow: true, now: new Date(start) },
  );
  expect(followed).toEqual({ following: true, until: new Date(start + 7 * DAY).toISOString() });
  // Another user cannot follow through this match.
  const stranger = await h.addUser();
  await expect(
    followThread(
      { db: h.db },
      { userId: stranger.id, matchId: String(storyMatch?.id), follow: true, now: new Date(start) },
    ),
  ).rejects.toThrow('no such');

  // Within the 7 days: alerts, without the words; after them: none.
  await h.publishItems([1, 2, 3].map((i) => replay(i, start + i * DAY)) as typeof comments);
  await h.publishItems(
    [4, 5].map((i) => replay(i, start + 7 * DAY + i * 3_600_000)) as typeof comments,
  );
  const after = await stored();
  expect(after.filter((match) => match.kind === 'comment')).toHaveLength(3);
  expect(after.every((match) => !/ranking/i.test(match.snippet) || match.kind === 'post')).toBe(
    true,
  );

  // Unfollowed: nothing more, even within the days.
  await followThread(
    { db: h.db },
    { userId: user.id, matchId: String(storyMatch?.id), follow: false, now: new Date(start) },
  );
  await h.publishItems([replay(6, start + 2 * DAY)] as typeof comments);
  expect((await stored()).filter((match) => match.kind === 'comment')).toHaveLength(3);
});
