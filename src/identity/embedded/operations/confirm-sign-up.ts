import { z } from 'zod';
import { spendCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
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
  secretHashMember,
  usernameMember,
} from '../validation.ts';

/** ConfirmSignUp: the sign-up code makes the user CONFIRMED and the e-mail address verified. */
export const confirmSignUp = defineOperation({
  input: z.object({
    ClientId: clientIdMember,
    Username: usernameMember,
    ConfirmationCode: codeMember,
    SecretHash: secretHashMember.optional(),
    ForceAliasCreation: z.boolean().optional(),
    Session: z.string().optional(),
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input) {
    const client = await requireClient(ctx.db, input.ClientId);
    checkSecretHash(client, input.Username, input.SecretHash);
    const user = await findUserByUsername(ctx.db, input.Username);
    const email = user?.email ?? normalizeUsername(input.Username);
    await ctx.limiter.perUser('confirmSignUp', email);
    if (user?.status === 'CONFIRMED') throw errors.alreadyConfirmed();

    const sub = await spendCode(ctx, { email, purpose: 'signup', code: input.ConfirmationCode });
    if (!user || sub !== user.sub) throw errors.codeMismatch();
    await updateUser(ctx, user.sub, { status: 'CONFIRMED', emailVerified: true });
    return {};
  },
});
