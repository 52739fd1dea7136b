/** A map of windows is pruned of finished ones past this many keys, and emptied past five times it. */
const PRUNE_ABOVE_KEYS = 10_000;

export type RateWindow = {
  /** Counts one event for `key`; `allowed` while the window holds at most `limit` events. */
  hit(key: string): { allowed: boolean; retryAfterSeconds: number };
  /** Whether `key` has used its `limit` in the current window, without counting an event. */
  exceeded(key: string): boolean;
};

/**
 * A fixed window of `windowMs` per key (an address, a user id), in this process: the one place
 * API rate limits count. Bounded, so a flood of keys cannot grow it without end. `now` is a
 * parameter so tests move time instead of waiting for it.
 */
export function createRateWindow(options: {
  readonly limit: number;
  readonly windowMs: number;
  readonly now?: () => number;
}): RateWindow {
  const { limit, windowMs } = options;
  const now = options.now ?? Date.now;
  const windows = new Map<string, { startedAt: number; count: number }>();

  function current(key: string, at: number) {
    const window = windows.get(key);
    if (window && at - window.startedAt < windowMs) return window;
    if (windows.size > PRUNE_ABOVE_KEYS) {
      for (const [other, value] of windows)
        if (at - value.startedAt >= windowMs) windows.delete(other);
      if (windows.size > PRUNE_ABOVE_KEYS * 5) windows.clear();
    }
    const fresh = { startedAt: at, count: 0 };
    windows.set(key, fresh);
    return fresh;
  }

  return {
    hit(key) {
      const at = now();
      const window = current(key, at);
      window.count += 1;
      const retryAfterSeconds = Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
      return { allowed: window.count <= limit, retryAfterSeconds };
    },
    exceeded(key) {
      return current(key, now()).count >= limit;
    },
  };
}
