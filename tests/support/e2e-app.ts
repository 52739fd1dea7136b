import { setTimeout as sleep } from 'node:timers/promises';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import type { BrowserContext } from 'playwright-core';
import { type AppProcess, startAppProcess } from './app-process.ts';
import { TEST_PASSWORD, uniqueEmail } from './factories.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';

export type E2eUser = { email: string; password: string; givenName: string; familyName: string };

export type E2eApp = {
  app: AppProcess;
  smtp: SmtpSink;
  clientId: string;
  /** Signs up through the identity service (as the browser would) without confirming. */
  signUp(overrides?: Partial<E2eUser>): Promise<E2eUser>;
  /** Signs up and confirms with the code that arrives by SMTP. */
  createConfirmedUser(overrides?: Partial<E2eUser>): Promise<E2eUser>;
  /** A real token record for `user`, as the web app stores it under `token`. */
  signIn(user: E2eUser): Promise<{ AccessToken: string; IdToken: string; RefreshToken: string }>;
  /** GlobalSignOut at the identity service with `accessToken`. */
  globalSignOut(accessToken: string): Promise<void>;
  /** REFRESH_TOKEN_AUTH at the identity service: resolves with the error name, or 'ok'. */
  refresh(refreshToken: string): Promise<string>;
  /** Puts a real session in the context's localStorage before any page script runs. */
  seedSession(context: BrowserContext, user: E2eUser): Promise<void>;
  close(): Promise<void>;
};

export type E2eAppOptions = {
  /**
   * A process of the file's own even with the default configuration, for a file that needs the
   * app to itself (counts over all users, settings of the whole app, mail to no one address).
   */
  own?: boolean;
};

/** This worker's app with the default configuration, started by the first file that asks. */
let sharedApp: Promise<E2eApp> | undefined;

/**
 * The real app process (node src/main.ts) with its mail going to a loopback SMTP sink.
 *
 * With the default configuration (no `env`, not `own`), one process and sink serve every file
 * that a Vitest worker runs (modules persist from file to file, `isolate: false`): each file
 * makes its own users and reads mail by address, so files do not see each other, and starting
 * the app is ~2.5 CPU-seconds. Its `close()` leaves it running; it stops with the worker (the
 * IPC channel closes however the worker ends: exit-with-parent.ts). Other configurations get a
 * process of their own, which `close()` stops.
 */
export async function startE2eApp(
  env: Record<string, string> = {},
  options: E2eAppOptions = {},
): Promise<E2eApp> {
  if (options.own || Object.keys(env).length > 0) return launchE2eApp(env, false);
  const current = sharedApp && (await sharedApp.catch(() => undefined));
  if (current && current.app.child.exitCode === null && current.app.child.signalCode === null) {
    return current;
  }
  const starting = launchE2eApp({}, true).then((e2e) => ({
    ...e2e,
    // Shared: the files after this one still use it.
    close: async () => {},
  }));
  sharedApp = starting;
  starting.catch(() => {
    if (sharedApp === starting) sharedApp = undefined;
  });
  return starting;
}

async function launchE2eApp(env: Record<string, string>, shared: boolean): Promise<E2eApp> {
  const smtp = await startSmtpSink();
  const app = await startAppProcess({
    env: { SMTP_URL: smtp.url, ...env },
    exitWithParent: shared,
  });
  const config = (await (await fetch(`${app.url}/api/config`)).json()) as {
    identity: { endpoint: string; region: string; clientId: string };
  };
  const sdk = new CognitoIdentityProviderClient({
    region: config.identity.region,
    endpoint: config.identity.endpoint,
    maxAttempts: 1,
  });
  const clientId = config.identity.clientId;

  const signUp = async (overrides: Partial<E2eUser> = {}) => {
    const user = {
      email: uniqueEmail('e2e'),
      password: TEST_PASSWORD,
      givenName: 'Grace',
      familyName: 'Hopper',
      ...overrides,
    };
    await sdk.send(
      new SignUpCommand({
        ClientId: clientId,
        Username: user.email,
        Password: user.password,
        UserAttributes: [
          { Name: 'email', Value: user.email },
          { Name: 'given_name', Value: user.givenName },
          { Name: 'family_name', Value: user.familyName },
        ],
      }),
    );
    return user;
  };

  const signIn = async (user: E2eUser) => {
    const answer = await sdk.send(
      new InitiateAuthCommand({
        AuthFlow: 'USER_PASSWORD_AUTH',
        ClientId: clientId,
        AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
      }),
    );
    const result = answer.AuthenticationResult;
    if (!result?.AccessToken || !result.IdToken || !result.RefreshToken)
      throw new Error('no tokens');
    return {
      AccessToken: result.AccessToken,
      IdToken: result.IdToken,
      RefreshToken: result.RefreshToken,
    };
  };

  return {
    app,
    smtp,
    clientId,
    signUp,
    signIn,
    async createConfirmedUser(overrides) {
      const user = await signUp(overrides);
      const code = await smtp.nextCode(user.email);
      await sdk.send(
        new ConfirmSignUpCommand({
          ClientId: clientId,
          Username: user.email,
          ConfirmationCode: code,
        }),
      );
      return user;
    },
    async globalSignOut(accessToken) {
      await sdk.send(new GlobalSignOutCommand({ AccessToken: accessToken }));
    },
    async refresh(refreshToken) {
      try {
        await sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: clientId,
            AuthParameters: { REFRESH_TOKEN: refreshToken },
          }),
        );
        return 'ok';
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    },
    async seedSession(context, user) {
      const record = await signIn(user);
      // As the login page does after a sign-in: make sure the product has the user's record.
      const ensured = await fetch(`${app.url}/api/user`, {
        method: 'POST',
        headers: { Authorization: record.AccessToken, 'Content-Type': 'application/json' },
        body: '{}',
      });
      if (!ensured.ok) throw new Error(`POST /api/user answered ${ensured.status}`);
      await context.addInitScript((value) => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('token', value);
          sessionStorage.setItem('seeded', '1');
        }
      }, JSON.stringify(record));
    },
    async close() {
      sdk.destroy();
      await app.stop();
      await smtp.close();
    },
  };
}

/**
 * Waits until `accessToken` has expired (its `exp` has passed), for the browser, which reads the
 * same clock, and for the service that issued it: no longer than that.
 */
export async function waitUntilExpired(accessToken: string | undefined): Promise<void> {
  const expiresAt = accessToken ? (decodeJwt(accessToken).exp ?? 0) * 1000 : 0;
  const left = expiresAt - Date.now();
  if (left >= 0) await sleep(left + 50);
}
