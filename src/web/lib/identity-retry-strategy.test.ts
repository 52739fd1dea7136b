import { describe, expect, test } from 'vitest';
import { createIdentityRetryStrategy, IDENTITY_RETRY } from './identity-retry-strategy.ts';

const noSleep = async () => {};

describe('the identity client retry strategy', () => {
  test('uses 100 ms as the base delay, 500 ms when throttled, capped at 20 s', () => {
    const strategy = createIdentityRetryStrategy({ random: () => 1, sleep: noSleep });
    expect(strategy.computeDelay(0, false)).toBe(100);
    expect(strategy.computeDelay(1, false)).toBe(200);
    expect(strategy.computeDelay(0, true)).toBe(500);
    expect(strategy.computeDelay(2, true)).toBe(2000);
    expect(strategy.computeDelay(12, true)).toBe(20_000);
  });

  test('makes at most 3 attempts in all', async () => {
    const strategy = createIdentityRetryStrategy({ random: () => 0, sleep: noSleep });
    let token = await strategy.acquireInitialRetryToken('cognito');
    token = await strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING' });
    token = await strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING' });
    expect(token.getRetryCount()).toBe(2);
    await expect(
      strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING' }),
    ).rejects.toThrow();
  });

  test('never retries client errors such as a wrong password', async () => {
    const strategy = createIdentityRetryStrategy({ sleep: noSleep });
    const token = await strategy.acquireInitialRetryToken('cognito');
    await expect(
      strategy.refreshRetryTokenForRetry(token, { errorType: 'CLIENT_ERROR' }),
    ).rejects.toThrow();
    expect(strategy.getCapacity()).toBe(IDENTITY_RETRY.capacity);
  });

  test('spends 5 of 500 capacity per retry, 10 for transient errors, and refunds on success', async () => {
    const strategy = createIdentityRetryStrategy({ random: () => 0, sleep: noSleep });
    const first = await strategy.acquireInitialRetryToken('cognito');
    const throttled = await strategy.refreshRetryTokenForRetry(first, { errorType: 'THROTTLING' });
    expect(strategy.getCapacity()).toBe(495);
    const transient = await strategy.refreshRetryTokenForRetry(
      await strategy.acquireInitialRetryToken('cognito'),
      { errorType: 'TRANSIENT' },
    );
    expect(strategy.getCapacity()).toBe(485);
    strategy.recordSuccess(transient);
    expect(strategy.getCapacity()).toBe(495);
    strategy.recordSuccess(throttled);
    expect(strategy.getCapacity()).toBe(500);
    strategy.recordSuccess(first);
    expect(strategy.getCapacity()).toBe(500);
  });

  test('stops retrying when the capacity is spent', async () => {
    const strategy = createIdentityRetryStrategy({ random: () => 0, sleep: noSleep });
    for (let i = 0; i < 50; i += 1) {
      await strategy.refreshRetryTokenForRetry(await strategy.acquireInitialRetryToken('c'), {
        errorType: 'TRANSIENT',
      });
    }
    expect(strategy.getCapacity()).toBe(0);
    await expect(
      strategy.refreshRetryTokenForRetry(await strategy.acquireInitialRetryToken('c'), {
        errorType: 'THROTTLING',
      }),
    ).rejects.toThrow();
  });

  test('waits the computed delay before a retry', async () => {
    const waits: number[] = [];
    const strategy = createIdentityRetryStrategy({
      random: () => 0.5,
      sleep: async (ms) => void waits.push(ms),
    });
    let token = await strategy.acquireInitialRetryToken('c');
    token = await strategy.refreshRetryTokenForRetry(token, { errorType: 'TRANSIENT' });
    await strategy.refreshRetryTokenForRetry(token, { errorType: 'THROTTLING' });
    expect(waits).toEqual([50, 500]);
  });
});
