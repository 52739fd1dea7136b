import { decodeProtectedHeader } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.ts';
import { createEmbeddedIdentity } from '../../src/identity/embedded/create-embedded-identity.ts';
import { createLogger } from '../../src/platform/logger.ts';
import { createMailer } from '../../src/platform/mailer.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { createTestConfig } from '../support/test-config.ts';
import { createTestDatabase } from '../support/test-database.ts';

// The pool, its web client and its keys are created once and kept in the database: every
// process and every restart uses the same ones.
describe('identity bootstrap', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  test('concurrent first starts and a restart share one pool, one client and the same keys', async () => {
    const config = createTestConfig();
    const logger = createLogger('silent');
    const mailer = createMailer({ config, logger });
    const start = () => createEmbeddedIdentity({ config, database, logger, mailer });
    const [first, second] = await Promise.all([start(), start()]);
    const restarted = await start();
    for (const other of [second, restarted]) {
      expect(other.userPoolId).toBe(first.userPoolId);
      expect(other.clientId).toBe(first.clientId);
    }
    const jwks = async (identity: typeof first) => {
      const response = await identity.routes?.request(
        `/${identity.userPoolId}/.well-known/jwks.json`,
      );
      return (await response?.json()) as { keys: unknown[] };
    };
    expect(await jwks(restarted)).toEqual(await jwks(first));
    expect((await jwks(first)).keys).toHaveLength(2);
    await Promise.all([first.close(), second.close(), restarted.close()]);
  });
});

describe('signing key rotation', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test('new tokens get the new keys; tokens signed before keep working until they expire', async () => {
    const user = await app.createUser();
    const before = await app.signIn(user);
    await app.api('/api/user', { token: before.AccessToken, method: 'POST', body: {} });

    await app.identity.admin.rotateSigningKeys();

    const after = await app.signIn(user);
    expect(decodeProtectedHeader(after.AccessToken).kid).not.toBe(
      decodeProtectedHeader(before.AccessToken).kid,
    );
    expect(decodeProtectedHeader(after.IdToken).kid).not.toBe(
      decodeProtectedHeader(before.IdToken).kid,
    );
    const published = (await (
      await fetch(`${app.identity.issuer}/.well-known/jwks.json`)
    ).json()) as {
      keys: { kid: string }[];
    };
    expect(published.keys).toHaveLength(4);
    for (const token of [before.AccessToken, after.AccessToken]) {
      expect(published.keys.map((key) => key.kid)).toContain(decodeProtectedHeader(token).kid);
      expect((await app.api('/api/user', { token })).status).toBe(200);
    }
  });
});
