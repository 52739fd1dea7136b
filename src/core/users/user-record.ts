import type { UserRow } from '../../db/schema/users.ts';
import type { UserRecord } from '../../shared/user.ts';
import { NotFoundError } from '../errors.ts';

/** The wire shape of a `users` row. */
export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    timezone: row.timezone,
    emailAlerts: row.emailAlerts,
    quietHours: row.quietHours ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The user has an identity but no record yet: ensureUser (run at sign-in) creates it. */
export function userRecordMissing(): NotFoundError {
  return new NotFoundError('There is no user record for this account yet; signing in creates it.');
}
