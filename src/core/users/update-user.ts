import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { UpdateUserBody, UserRecord } from '../../shared/user.ts';
import { toUserRecord, userRecordMissing } from './user-record.ts';

/** Changes the user's own record (names, time zone, e-mail alert mode); NotFoundError before ensureUser. */
export async function updateUser(
  ctx: { db: Database },
  input: { userId: string; changes: UpdateUserBody },
): Promise<UserRecord> {
  const [row] = await ctx.db
    .update(users)
    .set({ ...input.changes, updatedAt: new Date() })
    .where(eq(users.id, input.userId))
    .returning();
  if (!row) throw userRecordMissing();
  return toUserRecord(row);
}
