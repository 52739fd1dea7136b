import { afterEach, expect, test } from 'vitest';
import { loadReplayCorpus } from './corpus.ts';
import { type ReplayServer, startReplay } from './replay-server.ts';

const corpus = loadReplayCorpus(new URL('../../tests/fixtures/recorded', import.meta.url).pathname);
let replay: ReplayServer | undefined;
afterEach(async () => {
  await replay?.close();
  replay = undefined;
});

test('items revealed at once (revealMore) while the rate is 0 carry the time of the reveal', async () => {
  replay = await startReplay({ corpus, loop: true, rate: 0, initial: 10 });
  const before = Date.now();
  replay.revealMore(50);
  const after = Date.now();
  expect(replay.revealed('reddit')).toBe(60);
  for (const index of [0, 9])
    expect(replay.revealedAt('reddit', index)).toBeLessThanOrEqual(before);
  for (const index of [10, 35, 59]) {
    const at = replay.revealedAt('reddit', index);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(after);
  }
  // Not revealed yet: never, at rate 0.
  expect(replay.revealedAt('reddit', 60)).toBe(Number.POSITIVE_INFINITY);
  replay.setRate(1000);
  const ticking = Date.now();
  expect(replay.revealedAt('reddit', 60)).toBeGreaterThanOrEqual(ticking);
  expect(replay.revealedAt('reddit', 60)).toBeLessThanOrEqual(ticking + 1000);
});
