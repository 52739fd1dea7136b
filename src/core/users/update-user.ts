import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { emailDeliveryState } from '../../db/schema/delivery.ts';
import { users } from '../../db/schema/users.ts';
import type { UpdateUserBody, UserRecord } from '../../shared/user.ts';
import { toUserRecord, userRecordMissing } from './user-record.ts';

/** Changes the user's own record (names, time zone, e-mail alert mode, quiet hours); NotFoundError before ensureUser. */
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
  if (input.changes.quietHours !== undefined) {
    // Quiet hours move when waiting alerts are due: the email decider looks again.
    await ctx.db
      .update(emailDeliveryState)
      .set({ dueAt: null })
      .where(eq(emailDeliveryState.userId, input.userId));
  }
  return toUserRecord(row);
}
