import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';
import type { Mailer } from '../platform/mailer.ts';
import { createCognitoProvider } from './cognito/create-cognito-provider.ts';
import { createEmbeddedIdentity } from './embedded/create-embedded-identity.ts';
import type { IdentityProvider } from './port.ts';

export type IdentityProviderDeps = {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  mailer: Mailer;
  clock?: Clock;
};

/**
 * A real Cognito user pool when COGNITO_USER_POOL_ID and COGNITO_CLIENT_ID are set; otherwise
 * the embedded service at /idp, which speaks the same protocol so the browser code is the same.
 */
export async function createIdentityProvider(
  deps: IdentityProviderDeps,
): Promise<IdentityProvider> {
  const { config } = deps;
  if (config.COGNITO_USER_POOL_ID && config.COGNITO_CLIENT_ID) {
    deps.logger.info(
      {
        userPoolId: config.COGNITO_USER_POOL_ID,
        region: config.COGNITO_REGION,
        endpoint: config.COGNITO_ENDPOINT,
      },
      'using the Cognito user pool; the embedded identity service is off',
    );
    return createCognitoProvider({
      region: config.COGNITO_REGION,
      userPoolId: config.COGNITO_USER_POOL_ID,
      clientId: config.COGNITO_CLIENT_ID,
      ...(config.COGNITO_ENDPOINT ? { endpoint: config.COGNITO_ENDPOINT } : {}),
    });
  }
  return createEmbeddedIdentity(deps);
}
