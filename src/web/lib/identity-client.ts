import type {
  AuthenticationResultType,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { createIdentityRetryStrategy, IDENTITY_RETRY } from './identity-retry-strategy.ts';
import { loadRuntimeConfig } from './runtime-config.ts';

/**
 * The browser's identity client: the AWS SDK's Cognito client pointed at the endpoint named by
 * /api/config (the embedded service or a real user pool). The SDK is loaded on first use, so the
 * public pages do not download it.
 */
type Identity = {
  sdk: typeof import('@aws-sdk/client-cognito-identity-provider');
  client: CognitoIdentityProviderClient;
  clientId: string;
};

/** At most 50 characters (docs/product.md, "Constants"). */
const APP_ID = 'earshot-web';

let pending: Promise<Identity> | null = null;

export function getIdentity(): Promise<Identity> {
  pending ??= Promise.all([
    loadRuntimeConfig(),
    import('@aws-sdk/client-cognito-identity-provider'),
  ])
    .then(([config, sdk]) => ({
      sdk,
      clientId: config.identity.clientId,
      client: new sdk.CognitoIdentityProviderClient({
        region: config.identity.region,
        endpoint: config.identity.endpoint,
        maxAttempts: IDENTITY_RETRY.maxAttempts,
        retryStrategy: createIdentityRetryStrategy(),
        userAgentAppId: APP_ID,
      }),
    }))
    .catch((error: unknown) => {
      pending = null;
      throw error;
    });
  return pending;
}

export type Tokens = { AccessToken: string; IdToken: string; RefreshToken?: string | undefined };

export function tokensFrom(result: AuthenticationResultType | undefined): Tokens {
  if (!result?.AccessToken || !result.IdToken) {
    throw Object.assign(
      new Error('The sign-in service asked for a step Earshot does not support.'),
      {
        name: 'UnsupportedChallenge',
      },
    );
  }
  return {
    AccessToken: result.AccessToken,
    IdToken: result.IdToken,
    RefreshToken: result.RefreshToken,
  };
}

export async function signIn(email: string, password: string): Promise<Tokens> {
  const { sdk, client, clientId } = await getIdentity();
  const answer = await client.send(
    new sdk.InitiateAuthCommand({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: clientId,
      AuthParameters: { USERNAME: email, PASSWORD: password },
    }),
  );
  return tokensFrom(answer.AuthenticationResult);
}

/**
 * docs/product.md, "Accounts": the refresh-token flow; the answer carries new access and ID tokens
 * only.
 */
export async function refreshTokens(refreshToken: string): Promise<Tokens> {
  const { sdk, client, clientId } = await getIdentity();
  const answer = await client.send(
    new sdk.InitiateAuthCommand({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: clientId,
      AuthParameters: { REFRESH_TOKEN: refreshToken },
    }),
  );
  return tokensFrom(answer.AuthenticationResult);
}

export async function signUp(input: {
  email: string;
  password: string;
  givenName: string;
  familyName: string;
}) {
  const { sdk, client, clientId } = await getIdentity();
  return client.send(
    new sdk.SignUpCommand({
      ClientId: clientId,
      Username: input.email,
      Password: input.password,
      UserAttributes: [
        { Name: 'email', Value: input.email },
        { Name: 'given_name', Value: input.givenName },
        { Name: 'family_name', Value: input.familyName },
      ],
    }),
  );
}

export async function confirmSignUp(email: string, code: string) {
  const { sdk, client, clientId } = await getIdentity();
  await client.send(
    new sdk.ConfirmSignUpCommand({ ClientId: clientId, Username: email, ConfirmationCode: code }),
  );
}

export async function resendConfirmationCode(email: string) {
  const { sdk, client, clientId } = await getIdentity();
  return client.send(
    new sdk.ResendConfirmationCodeCommand({ ClientId: clientId, Username: email }),
  );
}

export async function forgotPassword(email: string) {
  const { sdk, client, clientId } = await getIdentity();
  return client.send(new sdk.ForgotPasswordCommand({ ClientId: clientId, Username: email }));
}

export async function confirmForgotPassword(email: string, code: string, password: string) {
  const { sdk, client, clientId } = await getIdentity();
  await client.send(
    new sdk.ConfirmForgotPasswordCommand({
      ClientId: clientId,
      Username: email,
      ConfirmationCode: code,
      Password: password,
    }),
  );
}

export async function changePassword(accessToken: string, previous: string, proposed: string) {
  const { sdk, client } = await getIdentity();
  await client.send(
    new sdk.ChangePasswordCommand({
      AccessToken: accessToken,
      PreviousPassword: previous,
      ProposedPassword: proposed,
    }),
  );
}

export async function updateNames(accessToken: string, givenName: string, familyName: string) {
  const { sdk, client } = await getIdentity();
  await client.send(
    new sdk.UpdateUserAttributesCommand({
      AccessToken: accessToken,
      UserAttributes: [
        { Name: 'given_name', Value: givenName },
        { Name: 'family_name', Value: familyName },
      ],
    }),
  );
}

/**
 * Starts an e-mail change: the provider keeps the current address until the code sent to the new
 * one is verified (verifyEmail). Answers where the code went (masked).
 */
export async function changeEmail(accessToken: string, email: string) {
  const { sdk, client } = await getIdentity();
  const answer = await client.send(
    new sdk.UpdateUserAttributesCommand({
      AccessToken: accessToken,
      UserAttributes: [{ Name: 'email', Value: email }],
    }),
  );
  return answer.CodeDeliveryDetailsList?.[0]?.Destination ?? null;
}

/** A new code for the pending address (or the current one when nothing is pending). */
export async function resendEmailCode(accessToken: string) {
  const { sdk, client } = await getIdentity();
  await client.send(
    new sdk.GetUserAttributeVerificationCodeCommand({
      AccessToken: accessToken,
      AttributeName: 'email',
    }),
  );
}

export async function verifyEmail(accessToken: string, code: string) {
  const { sdk, client } = await getIdentity();
  await client.send(
    new sdk.VerifyUserAttributeCommand({
      AccessToken: accessToken,
      AttributeName: 'email',
      Code: code,
    }),
  );
}

export async function deleteIdentity(accessToken: string) {
  const { sdk, client } = await getIdentity();
  await client.send(new sdk.DeleteUserCommand({ AccessToken: accessToken }));
}

/** Makes the refresh token unusable at the identity provider (best effort at log out). */
export async function revokeRefreshToken(refreshToken: string) {
  const { sdk, client, clientId } = await getIdentity();
  await client.send(new sdk.RevokeTokenCommand({ ClientId: clientId, Token: refreshToken }));
}
