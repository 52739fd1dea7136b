import { z } from 'zod';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { checkPasswordPolicy } from '../passwords.ts';
import { authenticate, revokeUserSessions } from '../sessions.ts';
import { updateUser } from '../store.ts';
import { passwordMember, tokenMember } from '../validation.ts';

/** ChangePassword: needs the current password; signs out every other session of the user. */
export const changePassword = defineOperation({
  input: z.object({
    PreviousPassword: passwordMember.optional(),
    ProposedPassword: passwordMember,
    AccessToken: tokenMember,
  }),
  async run(ctx, input, request) {
    const { user, claims } = await authenticate(ctx, input.AccessToken);
    await ctx.limiter.perUser('changePassword', user.email);
    if (!input.PreviousPassword) throw errors.missingParameter('PreviousPassword');
    checkPasswordPolicy(input.ProposedPassword, ctx.passwordPolicy);
    await ctx.limiter.perIp('passwordChecks', request.ip);
    if (!(await ctx.passwords.verify(user.passwordHash, input.PreviousPassword))) {
      throw errors.incorrectCredentials();
    }
    await updateUser(ctx, user.sub, {
      passwordHash: await ctx.passwords.hash(input.ProposedPassword),
    });
    await revokeUserSessions(ctx, user.sub, claims.originJti);
    return {};
  },
});
