import { RateLimitedError } from '../../core/errors.ts';

/**
 * A fixed one-minute window per key, in this process: enough to keep one user from flooding an
 * expensive endpoint (the preview reads a week of items). Bounded, so many keys cannot grow it
 * without end.
 */
export function createPerUserLimit(perMinute: number, what: string) {
  const windows = new Map<string, { startedAt: number; count: number }>();
  return (key: string): void => {
    const now = Date.now();
    let window = windows.get(key);
    if (!window || now - window.startedAt >= 60_000) {
      if (windows.size > 10_000) {
        for (const [k, w] of windows) if (now - w.startedAt >= 60_000) windows.delete(k);
      }
      window = { startedAt: now, count: 0 };
      windows.set(key, window);
    }
    window.count += 1;
    if (window.count > perMinute) {
      const retryAfter = Math.max(1, Math.ceil((window.startedAt + 60_000 - now) / 1000));
      throw new RateLimitedError(
        `Too many ${what} in a minute. Try again in ${retryAfter} seconds.`,
        retryAfter,
      );
    }
  };
}
