import { expect, test } from 'vitest';
import { createRateWindow } from './rate-window.ts';

test('allows `limit` events a window per key, then refuses until the window ends', () => {
  let now = 1_000_000;
  const window = createRateWindow({ limit: 3, windowMs: 60_000, now: () => now });
  expect([1, 2, 3].map(() => window.hit('a').allowed)).toEqual([true, true, true]);
  expect(window.exceeded('a')).toBe(true);
  now += 15_000;
  expect(window.hit('a')).toEqual({ allowed: false, retryAfterSeconds: 45 });
  expect(window.hit('b').allowed).toBe(true);
  now += 45_000;
  expect(window.exceeded('a')).toBe(false);
  expect(window.hit('a').allowed).toBe(true);
});

test('exceeded() does not count an event', () => {
  const window = createRateWindow({ limit: 1, windowMs: 1000, now: () => 0 });
  for (let i = 0; i < 5; i++) expect(window.exceeded('a')).toBe(false);
  window.hit('a');
  expect(window.exceeded('a')).toBe(true);
});
