import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import {
  type AuthenticationResultType,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { serve } from '@hono/node-server';
import type { Hono } from 'hono';
import type { Config } from '../../src/config/env.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import {
  createEmbeddedIdentity,
  type EmbeddedIdentity,
} from '../../src/identity/embedded/create-embedded-identity.ts';
import type { LimitOverrides } from '../../src/identity/embedded/limits.ts';
import type { PasswordHashCost } from '../../src/identity/embedded/passwords.ts';
import { MatchEvents } from '../../src/matches/match-events.ts';
import { createLogger, type Logger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import type { AppDeps } from '../../src/server/app-deps.ts';
import { createApp } from '../../src/server/create-app.ts';
import { type ApiErrorBody, apiErrorBodySchema } from '../../src/shared/api-error.ts';
import { TEST_PASSWORD, uniqueEmail } from './factories.ts';
import { createManualClock, type ManualClock } from './manual-clock.ts';
import { type SmtpSink, startSmtpSink } from './smtp-sink.ts';
import { createTestConfig } from './test-config.ts';
import { createTestDatabase } from './test-database.ts';

export type TestAppOptions = {
  /** Extra environment (e.g. IDP_ACCESS_TOKEN_TTL_SECONDS). PUBLIC_URL and SMTP_URL are set for you. */
  env?: Record<string, string | undefined>;
  /** Overrides of the identity service's limits. */
  limits?: LimitOverrides;
  /** Receive mail on a loopback SMTP server (default); false writes .eml files under DATA_DIR/mail. */
  smtp?: boolean;
  /** Directory of a built web app to serve (browser tests); none by default. */
  webRoot?: string | null;
  /** Keep every log line in `logs` (as raw JSON text). */
  captureLogs?: boolean;
  /** Live feed timings (poll and heartbeat intervals). */
  liveFeed?: AppDeps['liveFeed'];
  /**
   * The argon2id cost of passwords: a token cost by default (sign-ins are not what most tests
   * are about), or 'configured' for IDP_PASSWORD_HASH_MEMORY_KIB and IDP_PASSWORD_HASH_PASSES.
   */
  passwordHashCost?: PasswordHashCost | 'configured';
};

/** argon2id's smallest cost: tests sign in hundreds of times, each hash then takes no time. */
const TEST_PASSWORD_HASH_COST: PasswordHashCost = { memoryKib: 64, passes: 1 };

export type TestApp = {
  /** `http://127.0.0.1:<port>`: the whole app (API, /idp, web app when webRoot is given). */
  url: string;
  /** The endpoint to give the AWS SDK: `${url}/idp`. */
  idpEndpoint: string;
  /** The Hono app being served (its `routes`, or `app.request()` without the network). */
  app: ReturnType<typeof createApp>;
  config: Config;
  database: DatabaseHandle;
  identity: EmbeddedIdentity;
  /** The identity service's clock; advance it to expire codes, tokens and lockouts. */
  clock: ManualClock;
  /** New matches announced in this process: give it to matchNewItems to reach the live feed. */
  matchEvents: MatchEvents;
  smtp: SmtpSink | null;
  logs: string[];
  /** An AWS SDK v3 client for the embedded service; maxAttempts 1 unless given. */
  cognito(options?: { maxAttempts?: number }): CognitoIdentityProviderClient;
  /** Calls the product API with an access token (raw, as the web app sends it). */
  api(
    path: string,
    options?: { token?: string; method?: string; body?: unknown },
  ): Promise<Response>;
  /** One raw call on the wire (no SDK): for framing, headers and malformed input. */
  idp(
    operation: string | null,
    body: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }>;
  /** A confirmed user created directly in the service (no e-mail). */
  createUser(overrides?: Partial<TestUser>): Promise<TestUser & { sub: string }>;
  /** USER_PASSWORD_AUTH through the SDK with the web client (or `clientId`). */
  signIn(user: { email: string; password: string }, clientId?: string): Promise<Required<TokenSet>>;
  /**
   * The usual start of an API test: a confirmed, signed-in user whose record exists (made by
   * `POST /api/user`, as the web app does at sign-in), with the access token to call the API.
   * `record: false` leaves the record to the test.
   */
  signedInUser(
    overrides?: Partial<TestUser> & { record?: boolean },
  ): Promise<TestUser & { sub: string; token: string }>;
  close(): Promise<void>;
};

type Handler = (request: Request, env?: unknown) => Response | Promise<Response>;

export type TestUser = { email: string; password: string; givenName: string; familyName: string };
export type TokenSet = Pick<
  AuthenticationResultType,
  'AccessToken' | 'IdToken' | 'RefreshToken' | 'ExpiresIn'
>;

/**
 * The one way an integration test gets an app: the full app (API, /idp, optionally the web app)
 * in this process, with the embedded identity service on a fresh test database (PGlite, or the
 * server named by DATABASE_URL), served over real HTTP on a random loopback port, with codes
 * delivered to a loopback SMTP sink and a clock the test controls. PUBLIC_URL is the real URL, so
 * issuer and /api/config are what a browser sees. Rows a test needs without the API come from
 * tests/support/factories.ts on `app.database.db`; browser tests use the real process instead
 * (tests/support/e2e-app.ts).
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  // Listen first, so PUBLIC_URL (and with it the token issuer) is the real URL.
  let handler: Handler | undefined;
  const server = await listen({
    fetch: (request: Request, env?: unknown) =>
      handler ? handler(request, env) : new Response('starting', { status: 503 }),
  });
  const smtp = options.smtp === false ? null : await startSmtpSink();
  const config = createTestConfig({
    PUBLIC_URL: server.url,
    ...(smtp ? { SMTP_URL: smtp.url } : {}),
    ...options.env,
  });
  const logs: string[] = [];
  const logger: Logger = options.captureLogs
    ? createLogger(
        'debug',
        new Writable({
          write(chunk, _encoding, done) {
            logs.push(String(chunk));
            done();
          },
        }),
      )
    : createLogger('silent');
  const database = await createTestDatabase();
  const clock = createManualClock();
  const mailer = createMailer({ config, logger });
  const identity = await createEmbeddedIdentity({
    config,
    database,
    logger,
    mailer,
    clock,
    ...(options.limits ? { limits: options.limits } : {}),
    ...(options.passwordHashCost === 'configured'
      ? {}
      : { passwordHashCost: options.passwordHashCost ?? TEST_PASSWORD_HASH_COST }),
  });
  const matchEvents = new MatchEvents();
  const app = createApp({
    matchEvents,
    ...(options.liveFeed ? { liveFeed: options.liveFeed } : {}),
    config,
    database,
    identity,
    logger,
    version: 'test',
    startedAt: Date.now(),
    webRoot: options.webRoot ?? null,
  });
  handler = (request, env) => app.fetch(request, env as never);

  const clients: CognitoIdentityProviderClient[] = [];
  const cognito = (clientOptions: { maxAttempts?: number } = {}) => {
    const client = new CognitoIdentityProviderClient({
      region: config.COGNITO_REGION,
      endpoint: `${server.url}/idp`,
      maxAttempts: clientOptions.maxAttempts ?? 1,
    });
    clients.push(client);
    return client;
  };
  const sdk = cognito();

  const testApp: TestApp = {
    url: server.url,
    idpEndpoint: `${server.url}/idp`,
    app,
    config,
    database,
    identity,
    clock,
    matchEvents,
    smtp,
    logs,
    cognito,
    api(path, { token, method = 'GET', body } = {}) {
      const headers: Record<string, string> = {};
      if (token) headers.Authorization = token;
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      return fetch(`${server.url}${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    },
    async idp(operation, body, headers = {}) {
      const response = await fetch(`${server.url}/idp/`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-amz-json-1.1',
          ...(operation
            ? { 'X-Amz-Target': `AWSCognitoIdentityProviderService.${operation}` }
            : {}),
          ...headers,
        },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      });
      const text = await response.text();
      return {
        status: response.status,
        headers: response.headers,
        body: text ? JSON.parse(text) : {},
      };
    },
    async createUser(overrides = {}) {
      const user = {
        email: uniqueEmail(),
        password: TEST_PASSWORD,
        givenName: 'Ada',
        familyName: 'Lovelace',
        ...overrides,
      };
      const { sub } = await identity.admin.createUser(user);
      return { ...user, sub };
    },
    async signIn(user, clientId = identity.clientId) {
      const answer = await sdk.send(
        new InitiateAuthCommand({
          AuthFlow: 'USER_PASSWORD_AUTH',
          ClientId: clientId,
          AuthParameters: { USERNAME: user.email, PASSWORD: user.password },
        }),
      );
      const result = answer.AuthenticationResult;
      if (!result?.AccessToken || !result.IdToken || !result.RefreshToken || !result.ExpiresIn) {
        throw new Error('The sign-in returned no tokens');
      }
      return {
        AccessToken: result.AccessToken,
        IdToken: result.IdToken,
        RefreshToken: result.RefreshToken,
        ExpiresIn: result.ExpiresIn,
      };
    },
    async signedInUser({ record = true, ...overrides } = {}) {
      const user = await testApp.createUser(overrides);
      const { AccessToken: token } = await testApp.signIn(user);
      if (record) {
        const made = await testApp.api('/api/user', { token, method: 'POST', body: {} });
        if (made.status !== 201) throw new Error(`POST /api/user answered ${made.status}`);
      }
      return { ...user, token };
    },
    async close() {
      for (const client of clients) client.destroy();
      await server.close();
      await identity.close();
      await mailer.close();
      await smtp?.close();
      await database.close();
    },
  };
  return testApp;
}

/** The `error` of an API answer in the JSON error shape. */
export async function apiErrorOf(response: Response): Promise<ApiErrorBody['error']> {
  return apiErrorBodySchema.parse(await response.json()).error;
}

/** What an SDK call failed with: the error name the SDK reports, its message and the HTTP status. */
export async function failureOf(
  promise: Promise<unknown>,
): Promise<{ name: string; message: string; status: number | undefined }> {
  try {
    await promise;
  } catch (error) {
    const failure = error as Error & { $metadata?: { httpStatusCode?: number } };
    return {
      name: failure.name,
      message: failure.message,
      status: failure.$metadata?.httpStatusCode,
    };
  }
  throw new Error('Expected the call to fail, but it succeeded');
}

export type RunningServer = { url: string; close(): Promise<void> };

/** Serves a Hono app over real HTTP on a random loopback port. */
export async function listen(app: Pick<Hono, 'fetch'>): Promise<RunningServer> {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
