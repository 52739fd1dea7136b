import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';

/** The unsubscribe token is missing or not one Earshot signed; nothing was changed. */
export class InvalidUnsubscribeTokenError extends Error {
  override name = 'InvalidUnsubscribeTokenError';
}

/**
 * Turns email alerts off for the user an unsubscribe token names. No session: the token is the
 * proof. Idempotent (already off, or the account deleted since, is still "unsubscribed"); a
 * missing, empty, malformed, altered or forged token throws and changes nothing.
 */
export async function unsubscribeByToken(
  ctx: { db: Database; tokens: UnsubscribeTokens },
  token: string | undefined,
): Promise<{ unsubscribed: true }> {
  if (token === undefined || token.trim() === '') {
    throw new InvalidUnsubscribeTokenError(
      'The unsubscribe link has no token. Open the link from the email again, or change email alerts in Settings.',
    );
  }
  const userId = ctx.tokens.verify(token.trim());
  if (!userId) {
    throw new InvalidUnsubscribeTokenError(
      'This unsubscribe link is not valid (it may be cut short or altered). Open the link from the email again, or change email alerts in Settings.',
    );
  }
  await ctx.db
    .update(users)
    .set({ emailAlerts: 'off', updatedAt: new Date() })
    .where(eq(users.id, userId));
  return { unsubscribed: true };
}
