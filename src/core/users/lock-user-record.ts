import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { NotFoundError } from '../errors.ts';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Locks the user's row for the rest of `tx`, so that counting what the user holds before adding
 * one more (monitors, API keys) cannot be passed by two requests at once; throws NotFoundError
 * when there is no record yet.
 */
export async function lockUserRecord(tx: Transaction, userId: string): Promise<void> {
  const [user] = await tx
    .select({ id: users.id })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  if (!user) {
    throw new NotFoundError(
      'There is no user record for this account yet. POST /api/user creates it.',
    );
  }
}
