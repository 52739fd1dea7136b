import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { idpRateCounters, idpSignInFailures } from '../../db/schema/identity.ts';
import type { Clock } from '../../platform/clock.ts';
import { errors } from './errors.ts';

/**
 * Where guessing or flooding is possible, a limit: Cognito's per-user limits and sign-in lockout
 * (docs/product.md, "Codes and limits"), and per-IP limits of our own for what costs CPU (argon2id)
 * or sends e-mail. Counters live in the database, so every web process shares them.
 *
 * Per-user limits answer LimitExceededException "Attempt limit exceeded, please try after some
 * time."; per-IP limits answer TooManyRequestsException "Rate exceeded". Per-user keys are the
 * lower-cased user name as typed, so unknown accounts are limited exactly like real ones.
 */
export type Window = { limit: number; windowSeconds: number };

export type IdentityLimits = {
  /** After `threshold` failures, locked for base·2^(n−threshold) s, at most `maxSeconds`. */
  lockout: {
    threshold: number;
    baseSeconds: number;
    maxSeconds: number;
    resetAfterSeconds: number;
  };
  /** Wrong attempts one code survives; the next attempt answers TooManyFailedAttemptsException. */
  codeFailedAttempts: number;
  perUser: {
    /** Codes e-mailed per address: SignUp, ResendConfirmationCode, ForgotPassword together. */
    codeRequests: Window;
    confirmSignUp: Window;
    confirmForgotPassword: Window;
    changePassword: Window;
    /** VerifyUserAttribute calls per user (Cognito: 15 an hour). */
    verifyAttribute: Window;
  };
  perIp: {
    /**
     * Failed password sign-ins from one address at one account (counted per pair, so the
     * failures of one person behind a shared address never refuse another account).
     */
    signInFailures: Window;
    /** ConfirmSignUp calls from one address (its answers tell confirmed accounts apart). */
    confirmSignUp: Window;
    /** Requests that hash or verify a password (sign-in, sign-up, change, reset). */
    passwordChecks: Window;
    /** Requests that e-mail a code, so the service cannot be used to flood inboxes. */
    codeEmails: Window;
  };
};

export const DEFAULT_LIMITS: IdentityLimits = {
  lockout: { threshold: 5, baseSeconds: 1, maxSeconds: 900, resetAfterSeconds: 900 },
  codeFailedAttempts: 5,
  perUser: {
    codeRequests: { limit: 5, windowSeconds: 3600 },
    confirmSignUp: { limit: 15, windowSeconds: 3600 },
    confirmForgotPassword: { limit: 10, windowSeconds: 3600 },
    changePassword: { limit: 5, windowSeconds: 3600 },
    verifyAttribute: { limit: 15, windowSeconds: 3600 },
  },
  perIp: {
    signInFailures: { limit: 100, windowSeconds: 900 },
    confirmSignUp: { limit: 30, windowSeconds: 900 },
    passwordChecks: { limit: 120, windowSeconds: 60 },
    codeEmails: { limit: 50, windowSeconds: 3600 },
  },
};

/** Deep-merges overrides into the defaults (tests and the benchmark tune single windows). */
export function resolveLimits(overrides: LimitOverrides | undefined): IdentityLimits {
  const base = DEFAULT_LIMITS;
  return {
    lockout: { ...base.lockout, ...overrides?.lockout },
    codeFailedAttempts: overrides?.codeFailedAttempts ?? base.codeFailedAttempts,
    perUser: { ...base.perUser, ...overrides?.perUser },
    perIp: { ...base.perIp, ...overrides?.perIp },
  };
}

export type LimitOverrides = {
  lockout?: Partial<IdentityLimits['lockout']>;
  codeFailedAttempts?: number;
  perUser?: Partial<IdentityLimits['perUser']>;
  perIp?: Partial<IdentityLimits['perIp']>;
};

export type Limiter = ReturnType<typeof createLimiter>;

export function createLimiter(db: Database, clock: Clock, limits: IdentityLimits) {
  /** Counts one event under `key`; true while the window holds at most `limit` events. */
  async function hit(key: string, window: Window): Promise<boolean> {
    const now = clock.now().getTime();
    const nowIso = new Date(now).toISOString();
    const staleIso = new Date(now - window.windowSeconds * 1000).toISOString();
    const stale = sql`${idpRateCounters.windowStartedAt} <= ${staleIso}::timestamptz`;
    const [row] = await db
      .insert(idpRateCounters)
      .values({ key, windowStartedAt: new Date(now), count: 1 })
      .onConflictDoUpdate({
        target: idpRateCounters.key,
        set: {
          count: sql`case when ${stale} then 1 else ${idpRateCounters.count} + 1 end`,
          windowStartedAt: sql`case when ${stale} then ${nowIso}::timestamptz else ${idpRateCounters.windowStartedAt} end`,
        },
      })
      .returning({ count: idpRateCounters.count });
    return (row?.count ?? 1) <= window.limit;
  }

  /** The number of events counted under `key` in the current window, without counting one. */
  async function peek(key: string, window: Window): Promise<number> {
    const [row] = await db.select().from(idpRateCounters).where(eq(idpRateCounters.key, key));
    if (!row) return 0;
    const fresh =
      row.windowStartedAt.getTime() > clock.now().getTime() - window.windowSeconds * 1000;
    return fresh ? row.count : 0;
  }

  return {
    limits,

    /** Per-user limit: LimitExceededException once `window.limit` is passed. */
    async perUser(kind: keyof IdentityLimits['perUser'], username: string): Promise<void> {
      if (!(await hit(`user:${kind}:${username}`, limits.perUser[kind])))
        throw errors.limitExceeded();
    },

    /** Per-IP limit: TooManyRequestsException once `window.limit` is passed. */
    async perIp(
      kind: 'passwordChecks' | 'codeEmails' | 'confirmSignUp',
      ip: string,
    ): Promise<void> {
      if (!(await hit(`ip:${kind}:${ip}`, limits.perIp[kind]))) throw errors.rateExceeded();
    },

    /**
     * Refuses a sign-in from an address that has failed too often at this account, before any
     * password work. Other accounts from the same address are not affected.
     */
    async checkSignInFailuresFromIp(ip: string, account: string): Promise<void> {
      const window = limits.perIp.signInFailures;
      if ((await peek(`ip:signInFailures:${ip}:${account}`, window)) >= window.limit)
        throw errors.rateExceeded();
    },

    async recordSignInFailureFromIp(ip: string, account: string): Promise<void> {
      await hit(`ip:signInFailures:${ip}:${account}`, limits.perIp.signInFailures);
    },

    /**
     * Counts a sign-in attempt at `key` before its password is checked, in one statement, so
     * concurrent attempts cannot all pass a check made before any of them was counted. From the
     * threshold on, the attempt itself sets the lock (base·2^(n−threshold) s, at most
     * `maxSeconds`), so attempts arriving meanwhile are refused without a password check.
     * Throws NotAuthorizedException "Password attempts exceeded" while `key` is locked.
     * A success then clears the count (clearSignInFailures).
     */
    async reserveSignInAttempt(key: string): Promise<void> {
      const { threshold, baseSeconds, maxSeconds, resetAfterSeconds } = limits.lockout;
      const now = clock.now().getTime();
      const nowTs = sql`${new Date(now).toISOString()}::timestamptz`;
      const quietTs = sql`${new Date(now - resetAfterSeconds * 1000).toISOString()}::timestamptz`;
      // An attempt after a quiet period starts counting again from one.
      const attempts = sql`(case when ${idpSignInFailures.lastFailureAt} <= ${quietTs} then 1 else ${idpSignInFailures.failures} + 1 end)`;
      const lockSeconds = sql`least(${baseSeconds}::float8 * power(2, ${attempts} - ${threshold}), ${maxSeconds}::float8)`;
      const firstLock =
        threshold <= 1 ? new Date(now + Math.min(baseSeconds, maxSeconds) * 1000) : null;
      const [row] = await db
        .insert(idpSignInFailures)
        .values({ key, failures: 1, lastFailureAt: new Date(now), lockedUntil: firstLock })
        .onConflictDoUpdate({
          target: idpSignInFailures.key,
          set: {
            failures: attempts,
            lastFailureAt: nowTs,
            lockedUntil: sql`case when ${attempts} >= ${threshold} then ${nowTs} + ${lockSeconds} * interval '1 second' else null end`,
          },
          // A locked key is left as it is: the attempt is refused, not counted.
          setWhere: sql`${idpSignInFailures.lockedUntil} is null or ${idpSignInFailures.lockedUntil} <= ${nowTs}`,
        })
        .returning({ failures: idpSignInFailures.failures });
      if (!row) throw errors.passwordAttemptsExceeded();
    },

    async clearSignInFailures(key: string): Promise<void> {
      await db.delete(idpSignInFailures).where(eq(idpSignInFailures.key, key));
    },

    /** Drops counters whose windows are long over. */
    async sweep(): Promise<void> {
      const dayAgo = new Date(clock.now().getTime() - 86_400_000);
      await db.delete(idpRateCounters).where(lt(idpRateCounters.windowStartedAt, dayAgo));
      await db.delete(idpSignInFailures).where(lt(idpSignInFailures.lastFailureAt, dayAgo));
    },
  };
}
