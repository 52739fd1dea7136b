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
  return purpose === 'reset' ? ctx.lifetimes.resetCodeSeconds : ctx.lifetimes.signUpCodeSeconds;
}

/**
 * Stores a new code for `email` and e-mails it to `sendTo` (default `email`; a pending new
 * address for purpose `email`). With `sub` null (an unknown address) a decoy is stored and
 * nothing is sent: confirming it then fails exactly as for a real account.
 *
 * `afterAnswer` sends once the request has been answered (failures are logged): where the
 * answer must not reveal whether an account exists, the time to reach the mail server must not
 * either. Otherwise a failed send answers CodeDeliveryFailureException.
 */
export async function issueCode(
  ctx: ServiceContext,
  options: {
    email: string;
    sub: string | null;
    purpose: IdpCodePurpose;
    sendTo?: string;
    afterAnswer?: boolean;
  },
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
  const message = composeCodeEmail({
    to: options.sendTo ?? email,
    code,
    purpose,
    validForSeconds: lifetime(ctx, purpose),
  });
  if (options.afterAnswer) {
    ctx.afterAnswer(async () => {
      await ctx.mailer.send(message);
    }, `could not send a ${purpose} code`);
    return;
  }
  try {
    await ctx.mailer.send(message);
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
  options: { email: string; purpose: IdpCodePurpose; code: string; knownUser?: boolean },
): Promise<string> {
  const { email, purpose, code } = options;
  const where = and(eq(idpCodes.email, email), eq(idpCodes.purpose, purpose));
  const [row] = await ctx.db.select().from(idpCodes).where(where);
  // With no code on record, an address without a reachable account gets the answer a wrong
  // code gets (PreventUserExistenceErrors, as Cognito answers ConfirmForgotPassword).
  if (!row && options.knownUser === false) throw errors.codeMismatch();
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
