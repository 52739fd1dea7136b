import { and, eq, lt, sql } from 'drizzle-orm';
import { type IdpCodePurpose, idpCodes } from '../../db/schema/identity.ts';
import { composeCodeEmail } from './code-email.ts';
import type { ServiceContext } from './context.ts';
import { errors } from './errors.ts';
import { createCode, equalSecrets, hashCode } from './secrets.ts';

/**
 * One-time 6-digit codes: sign-up confirmation (24 h) and password reset (1 h). One outstanding
 * code per address and purpose; a new one replaces it. Stored as an HMAC, spent on success,
 * dead after `codeFailedAttempts` wrong tries.
 */

function lifetime(ctx: ServiceContext, purpose: IdpCodePurpose): number {
  return purpose === 'signup' ? ctx.lifetimes.signUpCodeSeconds : ctx.lifetimes.resetCodeSeconds;
}

/**
 * Stores a new code for `email` and e-mails it. With `sub` null (an unknown address) a decoy is
 * stored and nothing is sent: confirming it then fails exactly as for a real account.
 */
export async function issueCode(
  ctx: ServiceContext,
  options: { email: string; sub: string | null; purpose: IdpCodePurpose },
): Promise<void> {
  const { email, sub, purpose } = options;
  const code = createCode();
  const now = ctx.clock.now().getTime();
  const row = {
    email,
    purpose,
    sub,
    codeHash: sub
      ? hashCode(code, email, purpose)
      : `decoy:${hashCode(createCode(), email, purpose)}`,
    failedAttempts: 0,
    expiresAt: new Date(now + lifetime(ctx, purpose) * 1000),
    createdAt: new Date(now),
  };
  await ctx.db
    .insert(idpCodes)
    .values(row)
    .onConflictDoUpdate({ target: [idpCodes.email, idpCodes.purpose], set: row });
  if (!sub) return;
  try {
    await ctx.mailer.send(
      composeCodeEmail({ to: email, code, purpose, validForSeconds: lifetime(ctx, purpose) }),
    );
  } catch (error) {
    ctx.logger.error({ err: error, purpose }, 'could not send a verification code');
    throw errors.codeDeliveryFailure();
  }
}

/**
 * Checks and spends a code. Returns the user the code was issued for; throws
 * ExpiredCodeException (none outstanding, expired, or already spent), TooManyFailedAttempts
 * (too many wrong tries) or CodeMismatchException.
 */
export async function spendCode(
  ctx: ServiceContext,
  options: { email: string; purpose: IdpCodePurpose; code: string },
): Promise<string> {
  const { email, purpose, code } = options;
  const where = and(eq(idpCodes.email, email), eq(idpCodes.purpose, purpose));
  const [row] = await ctx.db.select().from(idpCodes).where(where);
  if (!row || row.expiresAt.getTime() <= ctx.clock.now().getTime()) throw errors.codeExpired();
  if (row.failedAttempts >= ctx.limiter.limits.codeFailedAttempts)
    throw errors.tooManyFailedAttempts();
  if (!row.sub || !equalSecrets(row.codeHash, hashCode(code, email, purpose))) {
    await ctx.db
      .update(idpCodes)
      .set({ failedAttempts: sql`${idpCodes.failedAttempts} + 1` })
      .where(and(where, eq(idpCodes.codeHash, row.codeHash)));
    throw errors.codeMismatch();
  }
  // Spend it; of two concurrent right answers only one deletes the row.
  const spent = await ctx.db
    .delete(idpCodes)
    .where(and(where, eq(idpCodes.codeHash, row.codeHash)))
    .returning({ sub: idpCodes.sub });
  if (spent.length === 0) throw errors.codeExpired();
  return row.sub;
}

export async function sweepCodes(ctx: Pick<ServiceContext, 'db' | 'clock'>): Promise<void> {
  await ctx.db.delete(idpCodes).where(lt(idpCodes.expiresAt, ctx.clock.now()));
}
