import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/client.ts';
import type { Mailer } from '../delivery/mailer.ts';
import type { Logger } from '../server/logger.ts';
import { type IdentityProvider, InvalidTokenError } from './port.ts';

export type IdentityProviderDeps = {
  config: Config;
  database: DatabaseHandle;
  logger: Logger;
  mailer: Mailer;
};

// Placeholder until the embedded Cognito-compatible service lands (accounts issue).
export async function createIdentityProvider(deps: IdentityProviderDeps): Promise<IdentityProvider> {
  const region = deps.config.COGNITO_REGION;
  return {
    kind: 'embedded',
    publicSettings: (origin) => ({
      endpoint: `${origin}/idp`,
      region,
      userPoolId: deps.config.COGNITO_USER_POOL_ID ?? `${region}_Earshot`,
      clientId: deps.config.COGNITO_CLIENT_ID ?? 'earshotembeddedclient00000',
    }),
    connectOrigins: () => [],
    verifyAccessToken: async () => {
      throw new InvalidTokenError('not implemented');
    },
    routes: null,
    close: async () => {},
  };
}
