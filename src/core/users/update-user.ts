import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../server/http/errors.ts';
import type { UpdateUserBody, UserRecord } from '../../shared/user.ts';
import { toUserRecord } from './user-record.ts';

/** Changes the signed-in user's own record (names, time zone, e-mail alert mode). */
export async function updateUser(
  ctx: { db: Database },
  input: { userId: string; changes: UpdateUserBody },
): Promise<UserRecord> {
  const [row] = await ctx.db
    .update(users)
    .set({ ...input.changes, updatedAt: new Date() })
    .where(eq(users.id, input.userId))
    .returning();
  if (!row) {
    throw new AppError(
      'NOT_FOUND',
      'There is no user record for this account yet. POST /api/user creates it.',
    );
  }
  return toUserRecord(row);
}
