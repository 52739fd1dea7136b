import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { idpClients, idpSessions } from '../../../db/schema/identity.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { equalSecrets, sha256 } from '../secrets.ts';
import { revokeSession } from '../sessions.ts';
import { clientIdMember, clientSecretMember, refreshTokenMember } from '../validation.ts';

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * RevokeToken: a refresh token and every access token refreshed from it stop working; the
 * user's other sessions are untouched. A secret client authenticates with its raw ClientSecret.
 * An unknown token is not an error (RFC 7009: the token is unusable either way).
 */
export const revokeToken = defineOperation({
  input: z.object({
    Token: refreshTokenMember,
    ClientId: clientIdMember,
    ClientSecret: clientSecretMember.optional(),
    ClientMetadata: z.record(z.string(), z.string()).optional(),
  }),
  async run(ctx, input) {
    const [client] = await ctx.db
      .select()
      .from(idpClients)
      .where(eq(idpClients.clientId, input.ClientId));
    if (!client) throw errors.clientUnauthorized(`Client ${input.ClientId} does not exist.`);
    if (client.secret && !(input.ClientSecret && equalSecrets(client.secret, input.ClientSecret))) {
      throw errors.clientUnauthorized(
        `Unable to verify the client secret for client ${client.clientId}`,
      );
    }
    if (JWT_SHAPE.test(input.Token)) throw errors.unsupportedTokenType();
    const [session] = await ctx.db
      .select({ originJti: idpSessions.originJti, clientId: idpSessions.clientId })
      .from(idpSessions)
      .where(eq(idpSessions.refreshTokenHash, sha256(input.Token)));
    if (!session) return {};
    if (session.clientId !== client.clientId) {
      throw errors.clientUnauthorized('The token was not issued to this client.');
    }
    await revokeSession(ctx, session.originJti);
    return {};
  },
});
