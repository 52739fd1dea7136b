import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { idpCodes, idpUsers } from '../../../db/schema/identity.ts';
import { spendCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { authenticate } from '../sessions.ts';
import { findUserByUsername } from '../store.ts';
import { codeMember, tokenMember } from '../validation.ts';
import {
  attributeNameMember,
  requireEmailAttribute,
} from './get-user-attribute-verification-code.ts';

/**
 * VerifyUserAttribute for `email`: the code sent to the pending address makes it the user name
 * and the verified `email` attribute (or, with nothing pending, verifies the current address).
 * Codes still outstanding for the old address die with the switch.
 */
export const verifyUserAttribute = defineOperation({
  input: z.object({
    AccessToken: tokenMember,
    AttributeName: attributeNameMember,
    Code: codeMember,
  }),
  async run(ctx, input) {
    const { user } = await authenticate(ctx, input.AccessToken);
    requireEmailAttribute(input.AttributeName);
    await ctx.limiter.perUser('verifyAttribute', user.sub);
    const target = user.pendingEmail ?? user.email;
    if (target !== user.email && (await findUserByUsername(ctx.db, target))) {
      throw errors.aliasExists();
    }
    const sub = await spendCode(ctx, { email: user.email, purpose: 'email', code: input.Code });
    if (sub !== user.sub) throw errors.codeMismatch();
    try {
      await ctx.db.transaction(async (tx) => {
        await tx
          .update(idpUsers)
          .set({
            email: target,
            pendingEmail: null,
            emailVerified: true,
            updatedAt: ctx.clock.now(),
          })
          .where(eq(idpUsers.sub, user.sub));
        if (target !== user.email) {
          await tx
            .delete(idpCodes)
            .where(and(eq(idpCodes.email, user.email), eq(idpCodes.sub, user.sub)));
        }
      });
    } catch (error) {
      // Another account took the address between the check and the switch.
      if (isUniqueViolation(error)) throw errors.aliasExists();
      throw error;
    }
    return {};
  },
});

function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as Error & { code?: unknown }).code === '23505') return true;
  }
  return false;
}
