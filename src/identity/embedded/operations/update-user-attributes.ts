import { z } from 'zod';
import { readAttributeChanges } from '../attributes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { authenticate } from '../sessions.ts';
import { updateUser } from '../store.ts';
import { attributeListMember, ignoredMap, tokenMember } from '../validation.ts';

/**
 * UpdateUserAttributes for the names. Changing the e-mail address would need VerifyUserAttribute,
 * which this service does not offer, so it is refused (the same address is accepted).
 */
export const updateUserAttributes = defineOperation({
  input: z.object({
    UserAttributes: attributeListMember,
    AccessToken: tokenMember,
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input) {
    const { user } = await authenticate(ctx, input.AccessToken);
    const changes = readAttributeChanges(input.UserAttributes);
    if (changes.email !== undefined && changes.email !== user.email) {
      throw errors.invalidParameter('Changing the email address is not supported.');
    }
    const update: { givenName?: string | null; familyName?: string | null } = {};
    if (changes.givenName !== undefined) update.givenName = changes.givenName;
    if (changes.familyName !== undefined) update.familyName = changes.familyName;
    if (Object.keys(update).length > 0) await updateUser(ctx, user.sub, update);
    return {};
  },
});
