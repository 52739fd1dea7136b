import type { UserRow } from '../../db/schema/users.ts';
import type { UserRecord } from '../../shared/user.ts';

/** The wire shape of a `users` row. */
export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    timezone: row.timezone,
    emailAlerts: row.emailAlerts,
    createdAt: row.createdAt.toISOString(),
  };
}
