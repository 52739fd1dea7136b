import { z } from 'zod';
import { isEmail } from '../attributes.ts';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import {
  checkSecretHash,
  codeDeliveryDetails,
  findUserByUsername,
  normalizeUsername,
  requireClient,
} from '../store.ts';
import { clientIdMember, ignoredMap, secretHashMember, usernameMember } from '../validation.ts';

/**
 * ForgotPassword: e-mails a reset code to a confirmed user. Unknown and unconfirmed users get the
 * same answer and nothing is sent (PreventUserExistenceErrors=ENABLED, cognito-protocol.md §4.2).
 */
export const forgotPassword = defineOperation({
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
    const reachable = user?.status === 'CONFIRMED' && user.emailVerified;
    if (reachable || isEmail(email)) {
      await issueCode(ctx, { email, sub: reachable ? user.sub : null, purpose: 'reset' });
    }
    return { CodeDeliveryDetails: codeDeliveryDetails(email) };
  },
});
