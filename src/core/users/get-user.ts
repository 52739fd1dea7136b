import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { UserRecord } from '../../shared/user.ts';
import { toUserRecord, userRecordMissing } from './user-record.ts';

/** The user's record; NotFoundError until ensureUser has created it (at the first sign-in). */
export async function getUser(ctx: { db: Database }, userId: string): Promise<UserRecord> {
  const [row] = await ctx.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw userRecordMissing();
  return toUserRecord(row);
}
