import { isEmail } from '../attributes.ts';
import { issueCode } from '../codes.ts';
import { defineOperation } from '../context.ts';
import { codeDeliveryDetails, identifyCaller } from '../store.ts';
import { namedUserInput } from '../validation.ts';

/**
 * ForgotPassword: e-mails a reset code to a confirmed user. Unknown and unconfirmed users get the
 * same answer and nothing is sent (PreventUserExistenceErrors=ENABLED, docs/product.md,
 * "User existence").
 */
export const forgotPassword = defineOperation({
  input: namedUserInput,
  async run(ctx, input, request) {
    const { user, email } = await identifyCaller(ctx.db, input);
    await ctx.limiter.perIp('codeEmails', request.ip);
    await ctx.limiter.perUser('codeRequests', email);
    const reachable = user?.status === 'CONFIRMED' && user.emailVerified;
    if (reachable || isEmail(email)) {
      await issueCode(ctx, {
        email,
        sub: reachable ? user.sub : null,
        purpose: 'reset',
        afterAnswer: true,
      });
    }
    return { CodeDeliveryDetails: codeDeliveryDetails(email) };
  },
});
