import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/users.ts';
import type { UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';
import { ValidationError } from '../errors.ts';

function invalidToken(message: string): ValidationError {
  return new ValidationError(message, [{ path: 'unsubscribeToken', message }]);
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
    throw invalidToken(
      'The unsubscribe link has no token. Open the link from the email again, or change email alerts in Settings.',
    );
  }
  const userId = ctx.tokens.verify(token.trim());
  if (!userId) {
    throw invalidToken(
      'This unsubscribe link is not valid (it may be cut short or altered). Open the link from the email again, or change email alerts in Settings.',
    );
  }
  await ctx.db
    .update(users)
    .set({ emailAlerts: 'off', updatedAt: new Date() })
    .where(eq(users.id, userId));
  return { unsubscribed: true };
}
