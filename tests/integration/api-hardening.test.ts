import { Writable } from 'node:stream';
import { GlobalSignOutCommand } from '@aws-sdk/client-cognito-identity-provider';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { createCognitoProvider } from '../../src/identity/cognito/create-cognito-provider.ts';
import { createEmbeddedIdentity } from '../../src/identity/embedded/create-embedded-identity.ts';
import type { IdentityProvider } from '../../src/identity/port.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import { createApp } from '../../src/server/create-app.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';
import { createTestConfig } from '../support/test-config.ts';
import { createTestDatabase } from '../support/test-database.ts';

function capturingLogger() {
  const lines: string[] = [];
  const logger = createLogger(
    'debug',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  return { logger, lines };
}

// Earshot in Cognito mode, its pool being another Earshot's embedded service: what the API
// checks when the identity provider is a real pool (docs/decisions/0006-token-verification.md).
describe('Cognito mode: destructive routes ask the provider whether the session is live', () => {
  let idp: TestApp;
  let database: DatabaseHandle;
  let provider: IdentityProvider;
  let app: ReturnType<typeof createApp>;
  beforeAll(async () => {
    idp = await startTestApp();
    database = await createTestDatabase();
    const config = createTestConfig({
      COGNITO_USER_POOL_ID: idp.identity.userPoolId,
      COGNITO_CLIENT_ID: idp.identity.clientId,
      COGNITO_ENDPOINT: idp.idpEndpoint,
    });
    provider = createCognitoProvider({
      region: config.COGNITO_REGION,
      userPoolId: idp.identity.userPoolId,
      clientId: idp.identity.clientId,
      endpoint: idp.idpEndpoint,
      now: () => idp.clock.now().getTime(),
    });
    app = createApp({
      config,
      database,
      identity: provider,
      logger: createLogger('silent'),
      version: 'test',
      startedAt: Date.now(),
      webRoot: null,
    });
  });
  afterAll(async () => {
    await provider.close();
    await database.close();
    await idp.close();
  });

  const call = (path: string, token: string, method = 'GET', body?: unknown) =>
    app.request(path, {
      method,
      headers: {
        Authorization: token,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  test('after GlobalSignOut reads still pass the signature check; changes and deletion are refused', async () => {
    const user = await idp.createUser();
    const tokens = await idp.signIn(user);
    expect((await call('/api/user', tokens.AccessToken, 'POST', {})).status).toBe(201);
    expect(
      (await call('/api/user', tokens.AccessToken, 'PUT', { emailAlerts: 'daily' })).status,
    ).toBe(200);

    await idp.cognito().send(new GlobalSignOutCommand({ AccessToken: tokens.AccessToken }));
    // The live-session answer is cached for seconds; past that, the provider is asked again.
    idp.clock.advance(11_000);
    expect((await call('/api/user', tokens.AccessToken)).status).toBe(200);
    for (const [method, body] of [
      ['PUT', { emailAlerts: 'off' }],
      ['DELETE', undefined],
      ['POST', undefined],
    ] as const) {
      const path = method === 'POST' ? '/api/user/email' : '/api/user';
      const response = await call(path, tokens.AccessToken, method, body);
      expect(response.status, method).toBe(401);
      expect(await apiErrorOf(response), method).toMatchObject({
        code: 'UNAUTHORIZED',
        details: { reason: 'revoked' },
      });
    }
    const record = await (await call('/api/user', tokens.AccessToken)).json();
    expect(record).toMatchObject({ emailAlerts: 'daily' });
  });
});

describe('the identity endpoint never comes from a request header', () => {
  test('without PUBLIC_URL, /api/config names http://HOST:PORT whatever Host says', async () => {
    const config = createTestConfig({ HOST: '127.0.0.1', PORT: '4567' });
    const database = await createTestDatabase();
    const logger = createLogger('silent');
    const mailer = createMailer({ config, logger });
    const identity = await createEmbeddedIdentity({ config, database, logger, mailer });
    try {
      const app = createApp({
        config,
        database,
        identity,
        logger,
        version: 'test',
        startedAt: Date.now(),
        webRoot: null,
      });
      const response = await app.request('http://evil.example/api/config', {
        headers: { Host: 'evil.example' },
      });
      const body = (await response.json()) as { identity: { endpoint: string } };
      expect(body.identity.endpoint).toBe('http://127.0.0.1:4567/idp');
    } finally {
      await identity.close();
      await mailer.close();
      await database.close();
    }
  });
});

describe('X-Forwarded-For while TRUST_PROXY is off', () => {
  async function appWith(trustProxy: string) {
    const config = createTestConfig({ TRUST_PROXY: trustProxy, PUBLIC_URL: 'http://127.0.0.1:1' });
    const database = await createTestDatabase();
    const { logger, lines } = capturingLogger();
    const mailer = createMailer({ config, logger });
    const identity = await createEmbeddedIdentity({ config, database, logger, mailer });
    const app = createApp({
      config,
      database,
      identity,
      logger,
      version: 'test',
      startedAt: Date.now(),
      webRoot: null,
    });
    const close = async () => {
      await identity.close();
      await mailer.close();
      await database.close();
    };
    return { app, lines, close };
  }
  const warnings = (lines: string[]) => lines.filter((line) => line.includes('TRUST_PROXY is off'));

  test('logs one warning, the first time', async () => {
    const { app, lines, close } = await appWith('false');
    try {
      await app.request('/api/health');
      expect(warnings(lines)).toEqual([]);
      for (let index = 0; index < 3; index++) {
        await app.request('/api/health', { headers: { 'X-Forwarded-For': '203.0.113.7' } });
      }
      expect(warnings(lines)).toHaveLength(1);
      expect(JSON.parse(warnings(lines)[0] ?? '{}')).toMatchObject({ level: 40 });
    } finally {
      await close();
    }
  });

  test('says nothing when TRUST_PROXY is on', async () => {
    const { app, lines, close } = await appWith('true');
    try {
      await app.request('/api/health', { headers: { 'X-Forwarded-For': '203.0.113.7' } });
      expect(warnings(lines)).toEqual([]);
    } finally {
      await close();
    }
  });
});
