import { expect, test } from 'vitest';
import { planBatch } from './batch.ts';

const at = (iso: string) => new Date(iso);
const minuteLater = (since: Date) => new Date(since.getTime() + 60_000);

test('a batch opens at its first match and waits until it is due', () => {
  const now = at('2026-06-10T10:00:00Z');
  const plan = planBatch({
    pending: [1, 2],
    pendingSince: null,
    dueAt: minuteLater,
    now,
    today: '2026-06-10',
    tomorrow: at('2026-06-11T00:00:00Z'),
    cap: { limit: 5, day: null, count: 0 },
  });
  expect(plan).toEqual({ due: false, pendingSince: now, dueAt: at('2026-06-10T10:01:00Z') });
});

test('once due, it covers what the day’s cap leaves room for and holds the rest', () => {
  const state = {
    pending: [1, 2, 3, 4],
    pendingSince: at('2026-06-10T10:00:00Z'),
    dueAt: minuteLater,
    now: at('2026-06-10T10:01:00Z'),
    today: '2026-06-10',
    tomorrow: at('2026-06-11T00:00:00Z'),
  };
  expect(planBatch({ ...state, cap: { limit: 5, day: '2026-06-10', count: 3 } })).toEqual({
    due: true,
    covered: [1, 2],
    held: 2,
    capDay: '2026-06-10',
    capCount: 5,
    capReached: true,
  });
  // Yesterday's count does not hold today back.
  expect(planBatch({ ...state, cap: { limit: 5, day: '2026-06-09', count: 5 } })).toEqual({
    due: true,
    covered: [1, 2, 3, 4],
    held: 0,
    capDay: '2026-06-10',
    capCount: 4,
    capReached: false,
  });
  // Already at the cap: nothing is sent; everything waiting waits for the next local day.
  expect(planBatch({ ...state, cap: { limit: 5, day: '2026-06-10', count: 5 } })).toEqual({
    due: false,
    pendingSince: state.pendingSince,
    dueAt: at('2026-06-11T00:00:00Z'),
  });
  // Then it is due, and the new day's cap covers them.
  expect(
    planBatch({
      ...state,
      now: at('2026-06-11T00:00:00Z'),
      today: '2026-06-11',
      tomorrow: at('2026-06-12T00:00:00Z'),
      cap: { limit: 5, day: '2026-06-10', count: 5 },
    }),
  ).toMatchObject({ due: true, covered: [1, 2, 3, 4], held: 0, capCount: 4 });
});
