import { z } from 'zod';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { authenticate } from '../sessions.ts';
import { codeDeliveryDetails } from '../store.ts';
import { ignoredMap, member, tokenMember } from '../validation.ts';

export const attributeNameMember = member({
  min: 1,
  max: 32,
  pattern: '[\\p{L}\\p{M}\\p{S}\\p{N}\\p{P}]+',
});

/** Only `email` can be verified: the pool has no phone numbers. */
export function requireEmailAttribute(name: string): void {
  if (name !== 'email') throw errors.invalidParameter(`Attribute ${name} cannot be verified.`);
}

/**
 * GetUserAttributeVerificationCode for `email`: a new code (replacing the last one) to the
 * pending new address, or to the current one when no change is pending.
 */
export const getUserAttributeVerificationCode = defineOperation({
  input: z.object({
    AccessToken: tokenMember,
    AttributeName: attributeNameMember,
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input, request) {
    const { user } = await authenticate(ctx, input.AccessToken);
    requireEmailAttribute(input.AttributeName);
    await ctx.limiter.perIp('codeEmails', request.ip);
    await ctx.limiter.perUser('codeRequests', user.email);
    const target = user.pendingEmail ?? user.email;
    await issueCode(ctx, { email: user.email, sub: user.sub, purpose: 'email', sendTo: target });
    return { CodeDeliveryDetails: codeDeliveryDetails(target) };
  },
});
