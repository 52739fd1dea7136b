import { z } from 'zod';
import { defineOperation } from '../context.ts';
import { authenticate, revokeUserSessions } from '../sessions.ts';
import { tokenMember } from '../validation.ts';

/** GlobalSignOut: every refresh token and access token of the user stops working. */
export const globalSignOut = defineOperation({
  input: z.object({ AccessToken: tokenMember }),
  async run(ctx, input) {
    const { user } = await authenticate(ctx, input.AccessToken);
    await revokeUserSessions(ctx, user.sub);
    return {};
  },
});
