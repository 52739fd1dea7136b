import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';

/**
 * Deletes everything Earshot keeps about a user: the `users` row, and through it every row of
 * the user's data.
 *
 * Architecture invariant: every table that holds a user's data references `users.id` with
 * `ON DELETE CASCADE` (Drizzle: `.references(() => users.id, { onDelete: 'cascade' })`), or
 * references a row that does. Then this one delete removes it all, atomically, and a new table
 * cannot be forgotten here. A table that cannot cascade (e.g. an outbox of mail already promised)
 * must be cleared explicitly below, inside the same transaction.
 *
 * The identity itself (password, sessions) lives in the identity provider; the browser deletes
 * it with Cognito's DeleteUser after this call.
 */
export async function deleteUserData(
  ctx: { db: Database },
  userId: string,
): Promise<{ deleted: boolean }> {
  const deleted = await ctx.db.transaction(async (tx) =>
    tx.delete(users).where(eq(users.id, userId)).returning({ id: users.id }),
  );
  return { deleted: deleted.length > 0 };
}
