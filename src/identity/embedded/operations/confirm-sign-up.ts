import { z } from 'zod';
import { spendCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { identifyCaller, updateUser } from '../store.ts';
import { codeMember, namedUserInput } from '../validation.ts';

/** ConfirmSignUp: the sign-up code makes the user CONFIRMED and the e-mail address verified. */
export const confirmSignUp = defineOperation({
  input: namedUserInput.extend({
    ConfirmationCode: codeMember,
    ForceAliasCreation: z.boolean().optional(),
    Session: z.string().optional(),
  }),
  async run(ctx, input, request) {
    const { user, email } = await identifyCaller(ctx.db, input);
    await ctx.limiter.perIp('confirmSignUp', request.ip);
    await ctx.limiter.perUser('confirmSignUp', email);
    if (user?.status === 'CONFIRMED') throw errors.alreadyConfirmed();

    const sub = await spendCode(ctx, { email, purpose: 'signup', code: input.ConfirmationCode });
    if (!user || sub !== user.sub) throw errors.codeMismatch();
    await updateUser(ctx, user.sub, { status: 'CONFIRMED', emailVerified: true });
    return {};
  },
});
