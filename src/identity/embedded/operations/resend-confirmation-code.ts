import { isEmail } from '../attributes.ts';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { codeDeliveryDetails, identifyCaller } from '../store.ts';
import { namedUserInput } from '../validation.ts';

/**
 * ResendConfirmationCode: a new sign-up code replaces the old one. For an unknown address the
 * answer is the same as for a real one (PreventUserExistenceErrors=ENABLED) and nothing is sent.
 */
export const resendConfirmationCode = defineOperation({
  input: namedUserInput,
  async run(ctx, input, request) {
    const { user, email } = await identifyCaller(ctx.db, input);
    await ctx.limiter.perIp('codeEmails', request.ip);
    await ctx.limiter.perUser('codeRequests', email);
    if (user?.status === 'CONFIRMED') throw errors.resendToConfirmed();
    if (user || isEmail(email))
      await issueCode(ctx, {
        email,
        sub: user?.sub ?? null,
        purpose: 'signup',
        afterAnswer: true,
      });
    return { CodeDeliveryDetails: codeDeliveryDetails(email) };
  },
});
