import { z } from 'zod';
import { userAttributes } from '../attributes.ts';
import { defineOperation } from '../context.ts';
import { authenticate } from '../sessions.ts';
import { tokenMember } from '../validation.ts';

/** GetUser: the internal user name (the sub) and the attributes, every value a string. */
export const getUser = defineOperation({
  input: z.object({ AccessToken: tokenMember }),
  async run(ctx, input) {
    const { user } = await authenticate(ctx, input.AccessToken);
    return { Username: user.sub, UserAttributes: userAttributes(user) };
  },
});
