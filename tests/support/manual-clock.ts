import type { Clock } from '../../src/platform/clock.ts';

/** A clock that only moves when a test moves it (code expiry, lockouts, token lifetimes). */
export type ManualClock = Clock & {
  advance(milliseconds: number): void;
  set(millisecondsSinceEpoch: number): void;
};

export function createManualClock(start = Date.now()): ManualClock {
  let now = start;
  return {
    now: () => new Date(now),
    advance(milliseconds) {
      now += milliseconds;
    },
    set(millisecondsSinceEpoch) {
      now = millisecondsSinceEpoch;
    },
  };
}
