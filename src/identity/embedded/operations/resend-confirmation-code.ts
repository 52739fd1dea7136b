import { z } from 'zod';
import { isEmail } from '../attributes.ts';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import {
  checkSecretHash,
  codeDeliveryDetails,
  findUserByUsername,
  normalizeUsername,
  requireClient,
} from '../store.ts';
import { clientIdMember, ignoredMap, secretHashMember, usernameMember } from '../validation.ts';

/**
 * ResendConfirmationCode: a new sign-up code replaces the old one. For an unknown address the
 * answer is the same as for a real one (PreventUserExistenceErrors=ENABLED) and nothing is sent.
 */
export const resendConfirmationCode = defineOperation({
  input: z.object({
    ClientId: clientIdMember,
    Username: usernameMember,
    SecretHash: secretHashMember.optional(),
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input, request) {
    const client = await requireClient(ctx.db, input.ClientId);
    checkSecretHash(client, input.Username, input.SecretHash);
    const user = await findUserByUsername(ctx.db, input.Username);
    const email = user?.email ?? normalizeUsername(input.Username);
    await ctx.limiter.perIp('codeEmails', request.ip);
    await ctx.limiter.perUser('codeRequests', email);
    if (user?.status === 'CONFIRMED') throw errors.resendToConfirmed();
    if (user || isEmail(email))
      await issueCode(ctx, { email, sub: user?.sub ?? null, purpose: 'signup' });
    return { CodeDeliveryDetails: codeDeliveryDetails(email) };
  },
});
