import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { AppError } from '../../server/http/errors.ts';
import type { UserRecord } from '../../shared/user.ts';
import { toUserRecord } from './user-record.ts';

/** The signed-in user's record, or NOT_FOUND until POST /api/user has created it. */
export async function getUser(ctx: { db: Database }, userId: string): Promise<UserRecord> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!row) {
    throw new AppError(
      'NOT_FOUND',
      'There is no user record for this account yet. POST /api/user creates it.',
    );
  }
  return toUserRecord(row);
}
