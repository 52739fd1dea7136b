/**
 * Every PostgreSQL advisory lock Earshot takes, by purpose, in one place so that no two purposes
 * share an id (two that did would wait on each other for no reason, or worse, exclude each
 * other). The values only have to be the same in every process sharing the database; a new lock
 * is a new line here, and `advisory-locks.test.ts` refuses a repeated value.
 */
export const ADVISORY_LOCKS = {
  /** `pg_advisory_lock(bigint)` around applying migrations (`migrate.ts`). */
  migrations: 7_221_042,
  /** `pg_advisory_xact_lock(bigint)`: item ids become visible in id order (`store-items.ts`). */
  itemOrder: 7_221_043,
  /** `pg_advisory_xact_lock(bigint)`: the identity pool is created once (`create-embedded-identity.ts`). */
  identityBootstrap: 7_221_044,
  /**
   * The first key of every worker lease, `pg_try_advisory_lock(int, int)` (`leadership.ts`); the
   * second key names the lease. Two-key locks are a separate key space from one-key ones in
   * PostgreSQL, but a distinct value keeps `pg_locks` readable.
   */
  leaseClass: 72_210,
} as const;
