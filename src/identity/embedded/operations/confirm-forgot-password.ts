import { spendCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { checkPasswordPolicy } from '../passwords.ts';
import { revokeUserSessions } from '../sessions.ts';
import { identifyCaller, updateUser } from '../store.ts';
import { codeMember, namedUserInput, passwordMember } from '../validation.ts';

/**
 * ConfirmForgotPassword: the reset code sets a new password and signs out every session. The
 * policy is checked before the code is spent, so a weak password does not cost the code.
 */
export const confirmForgotPassword = defineOperation({
  input: namedUserInput.extend({ ConfirmationCode: codeMember, Password: passwordMember }),
  async run(ctx, input, request) {
    const { user, email } = await identifyCaller(ctx.db, input);
    await ctx.limiter.perUser('confirmForgotPassword', email);
    checkPasswordPolicy(input.Password, ctx.passwordPolicy);
    await ctx.limiter.perIp('passwordChecks', request.ip);

    const sub = await spendCode(ctx, {
      email,
      purpose: 'reset',
      code: input.ConfirmationCode,
      knownUser: user?.status === 'CONFIRMED',
    });
    await updateUser(ctx, sub, { passwordHash: await ctx.passwords.hash(input.Password) });
    await revokeUserSessions(ctx, sub);
    await ctx.limiter.clearSignInFailures(`sub:${sub}`);
    return {};
  },
});
