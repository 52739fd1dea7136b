import type { RetryErrorInfo, RetryStrategyV2, StandardRetryToken } from '@smithy/types';

/**
 * docs/product.md, "Constants", fixes the identity client's retry behaviour: 3 attempts, backoff
 * base 100 ms (500 ms when throttled), at most 20 s, a retry capacity of 500 spent 5 per retry (10
 * for transient errors). The installed SDK's default strategy has drifted from these numbers, so
 * they are set here.
 */
export const IDENTITY_RETRY = {
  maxAttempts: 3,
  baseDelayMs: 100,
  throttlingBaseDelayMs: 500,
  maxDelayMs: 20_000,
  capacity: 500,
  retryCost: 5,
  transientRetryCost: 10,
  noRetryIncrement: 1,
} as const;

type Token = StandardRetryToken & { readonly cost: number | undefined };

function createToken(retryCount: number, delay: number, cost: number | undefined): Token {
  return {
    cost,
    getRetryCount: () => retryCount,
    getRetryDelay: () => delay,
    getRetryCost: () => cost,
  };
}

export function createIdentityRetryStrategy(
  options: { random?: () => number; sleep?: (ms: number) => Promise<void> } = {},
): RetryStrategyV2 & {
  mode: string;
  getCapacity(): number;
  computeDelay(retryCount: number, throttled: boolean): number;
} {
  const random = options.random ?? Math.random;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let capacity: number = IDENTITY_RETRY.capacity;

  const computeDelay = (retryCount: number, throttled: boolean) => {
    const base = throttled ? IDENTITY_RETRY.throttlingBaseDelayMs : IDENTITY_RETRY.baseDelayMs;
    return Math.floor(Math.min(IDENTITY_RETRY.maxDelayMs, random() * 2 ** retryCount * base));
  };

  return {
    mode: 'standard',
    computeDelay,
    getCapacity: () => capacity,
    async acquireInitialRetryToken() {
      return createToken(0, 0, undefined);
    },
    async refreshRetryTokenForRetry(token, errorInfo: RetryErrorInfo) {
      const retryable = errorInfo.errorType === 'THROTTLING' || errorInfo.errorType === 'TRANSIENT';
      const cost =
        errorInfo.errorType === 'TRANSIENT'
          ? IDENTITY_RETRY.transientRetryCost
          : IDENTITY_RETRY.retryCost;
      const attempts = token.getRetryCount() + 1;
      if (!retryable || attempts >= IDENTITY_RETRY.maxAttempts || capacity < cost) {
        throw new Error('No retry token available');
      }
      let delay = computeDelay(token.getRetryCount(), errorInfo.errorType === 'THROTTLING');
      if (errorInfo.retryAfterHint instanceof Date) {
        delay = Math.max(
          delay,
          Math.min(errorInfo.retryAfterHint.getTime() - Date.now(), IDENTITY_RETRY.maxDelayMs),
        );
      }
      capacity -= cost;
      await sleep(delay);
      return createToken(attempts, delay, cost);
    },
    recordSuccess(token) {
      const cost = (token as Token).cost;
      capacity = Math.min(
        IDENTITY_RETRY.capacity,
        capacity + (cost ?? IDENTITY_RETRY.noRetryIncrement),
      );
    },
  };
}
