import { z } from 'zod';
import { spendCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { checkPasswordPolicy } from '../passwords.ts';
import { revokeUserSessions } from '../sessions.ts';
import {
  checkSecretHash,
  findUserByUsername,
  normalizeUsername,
  requireClient,
  updateUser,
} from '../store.ts';
import {
  clientIdMember,
  codeMember,
  ignoredMap,
  passwordMember,
  secretHashMember,
  usernameMember,
} from '../validation.ts';

/**
 * ConfirmForgotPassword: the reset code sets a new password and signs out every session. The
 * policy is checked before the code is spent, so a weak password does not cost the code.
 */
export const confirmForgotPassword = defineOperation({
  input: z.object({
    ClientId: clientIdMember,
    Username: usernameMember,
    ConfirmationCode: codeMember,
    Password: passwordMember,
    SecretHash: secretHashMember.optional(),
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input, request) {
    const client = await requireClient(ctx.db, input.ClientId);
    checkSecretHash(client, input.Username, input.SecretHash);
    const user = await findUserByUsername(ctx.db, input.Username);
    const email = user?.email ?? normalizeUsername(input.Username);
    await ctx.limiter.perUser('confirmForgotPassword', email);
    checkPasswordPolicy(input.Password, ctx.passwordPolicy);
    await ctx.limiter.perIp('passwordChecks', request.ip);

    const sub = await spendCode(ctx, { email, purpose: 'reset', code: input.ConfirmationCode });
    await updateUser(ctx, sub, { passwordHash: await ctx.passwords.hash(input.Password) });
    await revokeUserSessions(ctx, sub);
    await ctx.limiter.clearSignInFailures(`sub:${sub}`);
    return {};
  },
});
