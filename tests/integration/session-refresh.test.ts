import {
  GlobalSignOutCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createSessionRefresher,
  type TokenStore,
} from '../../src/web/lib/session/session-refresher.ts';
import type { TokenRecord } from '../../src/web/lib/token-record.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// The browser's refresh logic (docs/product.md, "The session in the browser") against the real
// embedded identity service over HTTP, with the real AWS SDK client; only localStorage is replaced
// by a plain object.
describe('session refresh against the embedded identity service', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ smtp: false });
  });
  afterAll(async () => {
    await app?.close();
  });

  function memoryStore(initial: TokenRecord): TokenStore & { value: TokenRecord | null } {
    const store = {
      value: initial as TokenRecord | null,
      read: () => store.value,
      write: (record: TokenRecord) => {
        store.value = record;
      },
      clear: () => {
        store.value = null;
      },
    };
    return store;
  }

  async function signedIn() {
    const user = await app.createUser();
    const tokens = await app.signIn(user);
    return { user, tokens };
  }

  function refresherFor(
    store: TokenStore,
    outcomes: { refreshes: number; signedOut: number; warnings: number },
  ) {
    const sdk = app.cognito();
    return createSessionRefresher({
      store,
      async refresh(refreshToken) {
        outcomes.refreshes += 1;
        const answer = await sdk.send(
          new InitiateAuthCommand({
            AuthFlow: 'REFRESH_TOKEN_AUTH',
            ClientId: app.identity.clientId,
            AuthParameters: { REFRESH_TOKEN: refreshToken },
          }),
        );
        const result = answer.AuthenticationResult;
        if (!result?.AccessToken || !result.IdToken) throw new Error('no tokens');
        return {
          AccessToken: result.AccessToken,
          IdToken: result.IdToken,
          RefreshToken: result.RefreshToken,
        };
      },
      onRefreshed: () => true,
      onSignedOut: () => {
        outcomes.signedOut += 1;
      },
      errorName: (error) => (error instanceof Error ? error.name : 'Error'),
      warn: () => {
        outcomes.warnings += 1;
      },
    });
  }

  test('two calls at once trigger one refresh, and the stored record is merged', async () => {
    const { tokens } = await signedIn();
    app.clock.advance(1000);
    const store = memoryStore(tokens);
    const counts = { refreshes: 0, signedOut: 0, warnings: 0 };
    const refresh = refresherFor(store, counts);

    const outcomes = await Promise.all([refresh(), refresh(), refresh()]);
    expect(outcomes).toEqual(['refreshed', 'refreshed', 'refreshed']);
    expect(counts.refreshes).toBe(1);
    const record = store.value!;
    expect(record.AccessToken).not.toBe(tokens.AccessToken);
    expect(record.RefreshToken).toBe(tokens.RefreshToken);
    expect(decodeJwt(record.AccessToken).origin_jti).toBe(decodeJwt(tokens.AccessToken).origin_jti);
    expect(
      await (await app.api('/api/user', { token: record.AccessToken, method: 'POST', body: {} }))
        .status,
    ).toBe(201);

    await refresh();
    expect(counts.refreshes).toBe(2);
  });

  test('a refused refresh (signed out everywhere) removes the record and ends the session', async () => {
    const { tokens } = await signedIn();
    await app.cognito().send(new GlobalSignOutCommand({ AccessToken: tokens.AccessToken }));
    const store = memoryStore(tokens);
    const counts = { refreshes: 0, signedOut: 0, warnings: 0 };
    expect(await refresherFor(store, counts)()).toBe('signed-out');
    expect(store.value).toBeNull();
    expect(counts.signedOut).toBe(1);
  });

  test('a record without a refresh token ends the session without calling the provider', async () => {
    const { tokens } = await signedIn();
    const store = memoryStore({ AccessToken: tokens.AccessToken, IdToken: tokens.IdToken });
    const counts = { refreshes: 0, signedOut: 0, warnings: 0 };
    expect(await refresherFor(store, counts)()).toBe('signed-out');
    expect(counts.refreshes).toBe(0);
  });

  test('any other failure is reported and the session is kept', async () => {
    const { tokens } = await signedIn();
    const store = memoryStore(tokens);
    const counts = { refreshes: 0, signedOut: 0, warnings: 0 };
    const refresh = createSessionRefresher({
      store,
      refresh: async () => {
        throw Object.assign(new TypeError('Failed to fetch'), { name: 'TypeError' });
      },
      onRefreshed: () => true,
      onSignedOut: () => {
        counts.signedOut += 1;
      },
      errorName: (error) => (error instanceof Error ? error.name : 'Error'),
      warn: () => {
        counts.warnings += 1;
      },
    });
    expect(await refresh()).toBe('failed');
    expect(store.value).toEqual(tokens);
    expect(counts).toMatchObject({ signedOut: 0, warnings: 1 });
  });
});
