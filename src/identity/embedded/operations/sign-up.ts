import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { idpUsers } from '../../../db/schema/identity.ts';
import { isEmail, readAttributeChanges } from '../attributes.ts';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { checkPasswordPolicy } from '../passwords.ts';
import {
  checkSecretHash,
  codeDeliveryDetails,
  findUserByUsername,
  normalizeUsername,
  requireClient,
} from '../store.ts';
import {
  attributeListMember,
  clientIdMember,
  ignoredMap,
  passwordMember,
  secretHashMember,
  usernameMember,
} from '../validation.ts';

/**
 * SignUp: an UNCONFIRMED user whose e-mail address is the user name, and a sign-up code by
 * e-mail. The password policy is checked before the address, so a weak password never tells
 * whether an account exists.
 */
export const signUp = defineOperation({
  input: z.object({
    ClientId: clientIdMember,
    Username: usernameMember,
    Password: passwordMember,
    SecretHash: secretHashMember.optional(),
    UserAttributes: attributeListMember.optional(),
    ValidationData: attributeListMember.optional(),
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input, request) {
    const client = await requireClient(ctx.db, input.ClientId);
    checkSecretHash(client, input.Username, input.SecretHash);
    const email = normalizeUsername(input.Username);
    if (!isEmail(email)) throw errors.invalidParameter('Username should be an email.');
    const attributes = readAttributeChanges(input.UserAttributes ?? []);
    if (attributes.email !== undefined && attributes.email !== email) {
      throw errors.invalidParameter(
        'The email attribute must be the same address as the username.',
      );
    }
    checkPasswordPolicy(input.Password, ctx.passwordPolicy);
    await ctx.limiter.perIp('passwordChecks', request.ip);
    await ctx.limiter.perIp('codeEmails', request.ip);
    if (await findUserByUsername(ctx.db, email)) throw errors.usernameExists();
    await ctx.limiter.perUser('codeRequests', email);

    const sub = randomUUID();
    const now = ctx.clock.now();
    const inserted = await ctx.db
      .insert(idpUsers)
      .values({
        sub,
        email,
        passwordHash: await ctx.passwords.hash(input.Password),
        status: 'UNCONFIRMED',
        emailVerified: false,
        givenName: attributes.givenName ?? null,
        familyName: attributes.familyName ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning({ sub: idpUsers.sub });
    // Two sign-ups for one address at once: the second loses here.
    if (inserted.length === 0) throw errors.usernameExists();

    await issueCode(ctx, { email, sub, purpose: 'signup' });
    return { UserConfirmed: false, UserSub: sub, CodeDeliveryDetails: codeDeliveryDetails(email) };
  },
});
