import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { type IdentityProvider, InvalidTokenError } from '../../identity/port.ts';
import type { UserRecord } from '../../shared/user.ts';
import { NotFoundError, UnauthenticatedError } from '../errors.ts';
import { toUserRecord } from './user-record.ts';

/**
 * Takes the identity's e-mail address into the record once the identity provider holds it as
 * verified (after VerifyUserAttribute). The address comes from the provider (GetUser), never from
 * the request, so a user can only ever have the address they proved they own.
 */
export async function syncUserEmail(
  ctx: { db: Database; identity: IdentityProvider },
  input: { userId: string; accessToken: string },
): Promise<UserRecord> {
  const profile = await ctx.identity.fetchProfile(input.accessToken).catch((error: unknown) => {
    if (error instanceof InvalidTokenError)
      throw new UnauthenticatedError('Sign in again to continue.');
    throw error;
  });
  if (profile.sub !== input.userId) {
    throw new UnauthenticatedError('The access token does not belong to this identity.');
  }
  const query = ctx.db.select().from(users).where(eq(users.id, input.userId));
  const [row] = profile.emailVerified
    ? await ctx.db
        .update(users)
        .set({ email: profile.email, updatedAt: new Date() })
        .where(eq(users.id, input.userId))
        .returning()
    : await query;
  if (!row) {
    throw new NotFoundError(
      'There is no user record for this account yet. POST /api/user creates it.',
    );
  }
  return toUserRecord(row);
}
