import { RateLimitedError } from '../../core/errors.ts';
import { createRateWindow } from '../../platform/rate-window.ts';

/**
 * A fixed one-minute window per key, in this process: enough to keep one user from flooding an
 * expensive endpoint (the preview reads a week of items, a webhook test calls out).
 */
export function createPerUserLimit(perMinute: number, what: string) {
  const window = createRateWindow({ limit: perMinute, windowMs: 60_000 });
  return (key: string): void => {
    const { allowed, retryAfterSeconds } = window.hit(key);
    if (!allowed) {
      throw new RateLimitedError(
        `Too many ${what} in a minute. Try again in ${retryAfterSeconds} seconds.`,
        retryAfterSeconds,
      );
    }
  };
}
