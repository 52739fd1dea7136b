import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import { type IdentityProvider, InvalidTokenError } from '../../identity/port.ts';
import type { UserRecord } from '../../shared/user.ts';
import { UnauthenticatedError } from '../errors.ts';
import { toUserRecord } from './user-record.ts';

/**
 * Creates the record of the signed-in identity from the identity provider's attributes (e-mail,
 * given and family name) if it does not exist yet, and returns it. Idempotent: a second call,
 * or two at once, return the same record (insert-or-nothing on the primary key).
 */
export async function ensureUser(
  ctx: { db: Database; identity: IdentityProvider },
  input: { userId: string; accessToken: string },
): Promise<{ user: UserRecord; created: boolean }> {
  const existing = await find(ctx.db, input.userId);
  if (existing) return { user: existing, created: false };

  const profile = await ctx.identity.fetchProfile(input.accessToken).catch((error: unknown) => {
    // Signed out or deleted between the token check and here.
    if (error instanceof InvalidTokenError)
      throw new UnauthenticatedError('Sign in again to continue.');
    throw error;
  });
  if (profile.sub !== input.userId) {
    throw new UnauthenticatedError('The access token does not belong to this identity.');
  }
  const inserted = await ctx.db
    .insert(users)
    .values({
      id: profile.sub,
      email: profile.email,
      firstName: profile.givenName.slice(0, 100),
      lastName: profile.familyName.slice(0, 100),
    })
    .onConflictDoNothing({ target: users.id })
    .returning();
  const row = inserted[0];
  if (row) return { user: toUserRecord(row), created: true };
  const raced = await find(ctx.db, input.userId);
  if (!raced) throw new Error('The user record vanished while it was being created.');
  return { user: raced, created: false };
}

async function find(db: Database, userId: string): Promise<UserRecord | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row ? toUserRecord(row) : undefined;
}
