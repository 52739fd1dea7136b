import { eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import { idpCodes, idpSignInFailures, idpUsers } from '../../../db/schema/identity.ts';
import { defineOperation } from '../context.ts';
import { authenticate } from '../sessions.ts';
import { tokenMember } from '../validation.ts';

/**
 * DeleteUser: the identity, its sessions (so every token of it) and its codes are gone. The
 * product's data is removed separately through DELETE /api/user, which the browser calls first.
 */
export const deleteUser = defineOperation({
  input: z.object({ AccessToken: tokenMember }),
  async run(ctx, input) {
    const { user } = await authenticate(ctx, input.AccessToken);
    await ctx.db.transaction(async (tx) => {
      await tx.delete(idpCodes).where(eq(idpCodes.email, user.email));
      await tx
        .delete(idpSignInFailures)
        .where(inArray(idpSignInFailures.key, [`sub:${user.sub}`, `name:${user.email}`]));
      await tx.delete(idpUsers).where(eq(idpUsers.sub, user.sub));
    });
    return {};
  },
});
