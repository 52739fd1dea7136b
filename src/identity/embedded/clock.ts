/**
 * Where the identity service reads the time. Code expiry, lockouts, rate windows and token
 * timestamps all come from here, so tests move time instead of sleeping.
 */
export type Clock = {
  /** Milliseconds since the epoch. */
  now(): number;
};

export const systemClock: Clock = { now: () => Date.now() };

export function nowDate(clock: Clock): Date {
  return new Date(clock.now());
}

export function nowSeconds(clock: Clock): number {
  return Math.floor(clock.now() / 1000);
}
