import { z } from 'zod';
import { isEmail, readAttributeChanges } from '../attributes.ts';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { authenticate } from '../sessions.ts';
import { codeDeliveryDetails, findUserByUsername, updateUser } from '../store.ts';
import { attributeListMember, ignoredMap, tokenMember } from '../validation.ts';

/**
 * UpdateUserAttributes. Names change at once. A new e-mail address is handled as a Cognito pool
 * that auto-verifies e-mail and keeps the original value active until the update is verified:
 * the new address is kept as pending, a code goes to it, and VerifyUserAttribute switches the
 * user name and the attribute (until then GetUser, tokens and sign-in keep the old address).
 */
export const updateUserAttributes = defineOperation({
  input: z.object({
    UserAttributes: attributeListMember,
    AccessToken: tokenMember,
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input, request) {
    const { user } = await authenticate(ctx, input.AccessToken);
    const changes = readAttributeChanges(input.UserAttributes);
    const update: { givenName?: string | null; familyName?: string | null; pendingEmail?: null } =
      {};
    let pendingEmail: string | undefined;
    if (changes.email !== undefined && changes.email !== user.email) {
      if (!isEmail(changes.email)) throw errors.invalidParameter('Invalid email address format.');
      if (await findUserByUsername(ctx.db, changes.email)) throw errors.aliasExists();
      await ctx.limiter.perIp('codeEmails', request.ip);
      await ctx.limiter.perUser('codeRequests', user.email);
      pendingEmail = changes.email;
    } else if (changes.email !== undefined && user.pendingEmail) {
      // Setting the current address again drops a pending change.
      update.pendingEmail = null;
    }
    if (changes.givenName !== undefined) update.givenName = changes.givenName;
    if (changes.familyName !== undefined) update.familyName = changes.familyName;
    if (pendingEmail) {
      await updateUser(ctx, user.sub, { ...update, pendingEmail });
      await issueCode(ctx, {
        email: user.email,
        sub: user.sub,
        purpose: 'email',
        sendTo: pendingEmail,
      });
      return { CodeDeliveryDetailsList: [codeDeliveryDetails(pendingEmail)] };
    }
    if (Object.keys(update).length > 0) await updateUser(ctx, user.sub, update);
    return {};
  },
});
