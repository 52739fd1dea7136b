/**
 * Where code that keeps time reads it: expiry, lockouts, rate windows, token timestamps, retry
 * schedules. Production passes `systemClock`; tests pass a clock they move instead of sleeping.
 */
export type Clock = {
  now(): Date;
};

export const systemClock: Clock = { now: () => new Date() };
