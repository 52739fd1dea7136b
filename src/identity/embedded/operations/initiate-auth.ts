import { z } from 'zod';
import type { RequestInfo, ServiceContext } from '../context.ts';
import { defineOperation } from '../context.ts';
import { errors } from '../errors.ts';
import { findRefreshSession, refreshSession, startSession } from '../sessions.ts';
import {
  checkSecretHash,
  findUserByUsername,
  type IdpClient,
  normalizeUsername,
  requireClient,
  updateUser,
} from '../store.ts';
import { clientIdMember, ignoredMap } from '../validation.ts';

const AUTH_FLOWS = [
  'USER_SRP_AUTH',
  'REFRESH_TOKEN_AUTH',
  'REFRESH_TOKEN',
  'CUSTOM_AUTH',
  'ADMIN_NO_SRP_AUTH',
  'USER_PASSWORD_AUTH',
  'ADMIN_USER_PASSWORD_AUTH',
  'USER_AUTH',
] as const;

type AuthParameters = Record<string, string>;

/**
 * InitiateAuth with USER_PASSWORD_AUTH (sign-in) or REFRESH_TOKEN_AUTH / REFRESH_TOKEN (new
 * access and ID tokens; no new refresh token). The service never issues challenges.
 */
export const initiateAuth = defineOperation({
  input: z.object({
    AuthFlow: z.enum(AUTH_FLOWS),
    ClientId: clientIdMember,
    AuthParameters: z.record(z.string(), z.string()).optional(),
    ClientMetadata: ignoredMap,
  }),
  async run(ctx, input, request) {
    const client = await requireClient(ctx.db, input.ClientId);
    const parameters = input.AuthParameters ?? {};
    switch (input.AuthFlow) {
      case 'USER_PASSWORD_AUTH':
        return {
          ChallengeParameters: {},
          AuthenticationResult: await signIn(ctx, client, parameters, request),
        };
      case 'REFRESH_TOKEN_AUTH':
      case 'REFRESH_TOKEN':
        return {
          ChallengeParameters: {},
          AuthenticationResult: await refresh(ctx, client, parameters),
        };
      case 'ADMIN_NO_SRP_AUTH':
      case 'ADMIN_USER_PASSWORD_AUTH':
        throw errors.invalidParameter('Initiate Auth method not supported.');
      default:
        throw errors.flowNotEnabled(input.AuthFlow);
    }
  },
});

/**
 * Decision order (docs/product.md, "Sign-in decision order"). An unconfirmed user learns so
 * whatever the password, as Cognito answers (docs/decisions/0005). Every attempt is counted
 * before its password is checked, so concurrent guesses cannot slip past the lockout.
 */
async function signIn(
  ctx: ServiceContext,
  client: IdpClient,
  parameters: AuthParameters,
  request: RequestInfo,
) {
  const username = parameters.USERNAME;
  const password = parameters.PASSWORD;
  if (!username) throw errors.missingParameter('USERNAME');
  if (!password) throw errors.missingParameter('PASSWORD');
  checkSecretHash(client, username, parameters.SECRET_HASH);
  await ctx.limiter.perIp('passwordChecks', request.ip);

  const user = await findUserByUsername(ctx.db, username);
  if (user && user.status !== 'CONFIRMED') throw errors.userNotConfirmed();
  const lockKey = user ? `sub:${user.sub}` : `name:${normalizeUsername(username)}`;
  await ctx.limiter.checkSignInFailuresFromIp(request.ip, lockKey);
  await ctx.limiter.reserveSignInAttempt(lockKey);
  const correct = await ctx.passwords.verify(user?.passwordHash ?? null, password);
  if (!user || !correct) {
    await ctx.limiter.recordSignInFailureFromIp(request.ip, lockKey);
    throw errors.incorrectCredentials();
  }
  await ctx.limiter.clearSignInFailures(lockKey);
  if (ctx.passwords.needsRehash(user.passwordHash)) {
    await updateUser(ctx, user.sub, { passwordHash: await ctx.passwords.hash(password) });
  }
  return startSession(ctx, user, client);
}

async function refresh(ctx: ServiceContext, client: IdpClient, parameters: AuthParameters) {
  const token = parameters.REFRESH_TOKEN;
  if (!token) throw errors.missingParameter('REFRESH_TOKEN');
  const found = await findRefreshSession(ctx, token);
  if (found.session.clientId !== client.clientId) throw errors.invalidRefreshToken();
  // Over the internal user name (the sub), as Cognito requires for refresh.
  checkSecretHash(client, found.user.sub, parameters.SECRET_HASH, errors.refreshSecretHashMismatch);
  return refreshSession(ctx, found);
}
