import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApiKey } from '../../src/core/api-keys/create-api-key.ts';
import { revokeApiKey } from '../../src/core/api-keys/revoke-api-key.ts';
import { type AppProcess, startAppProcess } from '../support/app-process.ts';
import { createItem, createMatch, createMonitor, createUser } from '../support/factories.ts';
import { describeServer } from '../support/server-database.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

type Access = 'account' | 'read' | 'write';
type RouteCase = {
  method: string;
  /** With `:monitor`, `:match`, `:key`, `:feed` and `:delivery` standing for a row of the user's (or an id none has). */
  path: string;
  access: Access;
  body?: unknown;
};

// Every /api route but the public ones, with what an API key needs on it. The first test checks
// this list against the app's own routes, so a new route cannot go untested here.
const ROUTES: RouteCase[] = [
  { method: 'GET', path: '/api/monitors', access: 'read' },
  { method: 'GET', path: '/api/monitors/:monitor', access: 'read' },
  { method: 'GET', path: '/api/monitors/:monitor/coach', access: 'read' },
  { method: 'POST', path: '/api/monitors/preview', access: 'read', body: { query: 'postgres' } },
  { method: 'GET', path: '/api/matches', access: 'read' },
  { method: 'GET', path: '/api/matches/stats', access: 'read' },
  { method: 'GET', path: '/api/matches/export?format=csv', access: 'read' },
  { method: 'POST', path: '/api/monitors', access: 'write', body: { query: 'sqlite' } },
  { method: 'PATCH', path: '/api/monitors/:monitor', access: 'write', body: { paused: true } },
  { method: 'POST', path: '/api/monitors/:monitor/webhook/test', access: 'write' },
  { method: 'POST', path: '/api/matches/mark-read', access: 'write', body: {} },
  { method: 'PATCH', path: '/api/matches/:match', access: 'write', body: { read: true } },
  {
    method: 'PUT',
    path: '/api/matches/:match/feedback',
    access: 'write',
    body: { rating: 'relevant' },
  },
  { method: 'DELETE', path: '/api/matches/:match', access: 'write' },
  // Following a thread changes what becomes an alert.
  { method: 'POST', path: '/api/matches/:match/follow', access: 'write' },
  { method: 'DELETE', path: '/api/matches/:match/follow', access: 'write' },
  {
    method: 'PUT',
    path: '/api/matches/:match/signals',
    access: 'write',
    body: { sentiment: 'neutral' },
  },
  { method: 'DELETE', path: '/api/monitors/:monitor', access: 'write' },
  { method: 'GET', path: '/api/feeds', access: 'read' },
  // Looks at a URL and saves nothing (here an address it refuses: 400, not 403).
  {
    method: 'POST',
    path: '/api/feeds/preview',
    access: 'read',
    body: { url: 'http://127.0.0.1:9/' },
  },
  { method: 'POST', path: '/api/feeds', access: 'write', body: { url: 'http://127.0.0.1:9/' } },
  { method: 'PATCH', path: '/api/feeds/:feed', access: 'write', body: { paused: true } },
  { method: 'DELETE', path: '/api/feeds/:feed', access: 'write' },
  // Alert feeds: listing reads; making, resetting or turning off a link changes what a URL opens.
  { method: 'GET', path: '/api/alert-feeds', access: 'read' },
  // The delivery history reads; sending a failed message again changes what goes out.
  { method: 'GET', path: '/api/monitors/:monitor/webhook/calls', access: 'read' },
  {
    method: 'POST',
    path: '/api/monitors/:monitor/webhook/calls/:delivery/send-again',
    access: 'write',
  },
  { method: 'GET', path: '/api/emails', access: 'read' },
  { method: 'POST', path: '/api/emails/:delivery/send-again', access: 'write' },
  { method: 'POST', path: '/api/alert-feeds', access: 'write', body: { monitorId: null } },
  { method: 'DELETE', path: '/api/alert-feeds/:feed', access: 'write' },
  { method: 'GET', path: '/api/user', access: 'account' },
  { method: 'PUT', path: '/api/user', access: 'account', body: { firstName: 'Mallory' } },
  { method: 'POST', path: '/api/user', access: 'account', body: {} },
  { method: 'POST', path: '/api/user/email', access: 'account' },
  { method: 'POST', path: '/api/user/test-email', access: 'account' },
  { method: 'DELETE', path: '/api/user', access: 'account' },
  { method: 'GET', path: '/api/api-keys', access: 'account' },
  { method: 'POST', path: '/api/api-keys', access: 'account', body: { name: 'x', scope: 'write' } },
  { method: 'DELETE', path: '/api/api-keys/:key', access: 'account' },
  { method: 'POST', path: '/api/events/ticket', access: 'account' },
  { method: 'GET', path: '/api/events', access: 'account' },
];
const PUBLIC = [
  '/api/health',
  '/api/config',
  '/api/openapi.json',
  '/api/user/unsubscribe',
  // The mute links of alert emails: the token in the query is the proof (decision 0038).
  '/api/feedback',
  '/api/mutes',
];

describe('API keys', () => {
  let app: TestApp;
  let token: string;
  let userId: string;
  beforeAll(async () => {
    // Behind a proxy, so that a test can come from an address of its own: the route walks send
    // more revoked keys in a minute than one address may (60, then 429 for invalid ones).
    app = await startTestApp({ env: { API_KEY_REQUESTS_PER_MINUTE: '1000', TRUST_PROXY: 'true' } });
    const user = await app.signedInUser();
    token = user.token;
    userId = user.sub;
  });
  afterAll(() => app.close());

  async function makeKey(scope: 'read' | 'write', name = `${scope} key`) {
    const response = await app.api('/api/api-keys', {
      token,
      method: 'POST',
      body: { name, scope },
    });
    expect(response.status).toBe(201);
    return (await response.json()) as { id: string; key: string; prefix: string };
  }

  function call(route: RouteCase, authorization: string, ids: Record<string, string>) {
    const path = route.path.replace(/:(\w+)/g, (_, name: string) => ids[name] ?? '');
    return fetch(`${app.url}${path}`, {
      method: route.method,
      headers: {
        Authorization: authorization,
        ...(route.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      ...(route.body !== undefined ? { body: JSON.stringify(route.body) } : {}),
    });
  }

  /** A fresh monitor and match of the user for one request (a key and a feed id none has). */
  async function rowsFor() {
    const monitor = await createMonitor(app.database.db, { userId });
    const item = await createItem(app.database.db);
    const match = await createMatch(app.database.db, { monitor, item });
    return {
      monitor: monitor.id,
      match: String(match.id),
      key: randomUUID(),
      feed: randomUUID(),
      delivery: '999999999',
    };
  }

  test('the list above covers every route the API serves', () => {
    const served = new Set(
      app.app.routes
        .filter((route) => route.path.startsWith('/api/') && !route.path.includes('*'))
        .filter((route) => route.method !== 'ALL' && !PUBLIC.some((p) => route.path.startsWith(p)))
        .map((route) => `${route.method} ${route.path.replace(/\{?:?(\w+)\}?/g, '$1')}`),
    );
    const listed = new Set(
      ROUTES.map((route) => `${route.method} ${route.path.split('?')[0]?.replaceAll(':', '')}`),
    );
    const normalise = (entry: string) =>
      entry.replace(/\/(monitor|match|key|feed|delivery|callId|id)(?=\/|$)/g, '/ID');
    expect([...served].map(normalise).sort()).toEqual(
      [...listed]
        .map(normalise)
        .sort()
        .filter((entry, i, all) => all.indexOf(entry) === i),
    );
  });

  test('a key is shown once, listed by its prefix and scope, and stored only as a hash', async () => {
    const made = await makeKey('read', 'Zapier');
    expect(made.key).toMatch(/^esk_[A-Za-z0-9_-]{32}$/);
    expect(made.prefix).toBe(made.key.slice(0, 12));
    const listed = (await (await app.api('/api/api-keys', { token })).json()) as Array<
      Record<string, unknown>
    >;
    const row = listed.find((key) => key.id === made.id);
    expect(row).toMatchObject({ name: 'Zapier', scope: 'read', prefix: made.prefix });
    expect(row).not.toHaveProperty('key');
    const stored = await app.database.db.query.apiKeys.findFirst({
      where: (keys, { eq }) => eq(keys.id, made.id),
    });
    expect(stored?.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(stored)).not.toContain(made.key.slice(12));
  });

  for (const scope of ['read', 'write'] as const) {
    test(`a ${scope} key works on every route its scope allows, 403 elsewhere, 401 once revoked`, async () => {
      const key = await makeKey(scope);
      for (const route of ROUTES) {
        const response = await call(route, `Bearer ${key.key}`, await rowsFor());
        const label = `${route.method} ${route.path}`;
        if (route.access === 'account' || (route.access === 'write' && scope === 'read')) {
          expect(response.status, label).toBe(403);
          expect((await apiErrorOf(response)).code, label).toBe('FORBIDDEN');
        } else {
          expect([401, 403, 500], label).not.toContain(response.status);
          await response.body?.cancel();
        }
      }
      const revoked = await app.api(`/api/api-keys/${key.id}`, { token, method: 'DELETE' });
      expect(revoked.status).toBe(204);
      for (const route of ROUTES.filter((r) => r.access !== 'account')) {
        const response = await call(route, `Bearer ${key.key}`, await rowsFor());
        expect(response.status, `${route.method} ${route.path}`).toBe(401);
        expect(await apiErrorOf(response)).toMatchObject({
          code: 'UNAUTHORIZED',
          details: { reason: 'revoked' },
        });
      }
    });
  }

  test('the access token still works on every route, account ones included', async () => {
    for (const route of ROUTES.filter((r) => r.path !== '/api/user' || r.method === 'GET')) {
      if (route.path === '/api/events') continue; // a stream: answered, never finished
      const response = await call(route, token, await rowsFor());
      expect([401, 403, 500], `${route.method} ${route.path}`).not.toContain(response.status);
      await response.body?.cancel();
    }
  });

  test('a key acts as its owner only: another user’s monitor is 404', async () => {
    const key = await makeKey('write');
    const other = await createUser(app.database.db);
    const theirs = await createMonitor(app.database.db, { userId: other.id });
    const response = await app.api(`/api/monitors/${theirs.id}`, { token: `Bearer ${key.key}` });
    expect(response.status).toBe(404);
  });

  test('an unknown or malformed key is 401; keys of another user cannot be revoked', async () => {
    for (const bad of ['esk_short', `esk_${'A'.repeat(32)}`]) {
      const response = await fetch(`${app.url}/api/monitors`, {
        headers: { Authorization: `Bearer ${bad}`, 'X-Forwarded-For': '203.0.113.7' },
      });
      expect(response.status).toBe(401);
      expect((await apiErrorOf(response)).message).toMatch(/API key is not valid/);
    }
    const other = await createUser(app.database.db);
    const theirs = await createApiKey(
      { db: app.database.db },
      { userId: other.id, body: { name: 'theirs', scope: 'read' } },
    );
    const response = await app.api(`/api/api-keys/${theirs.id}`, { token, method: 'DELETE' });
    expect(response.status).toBe(404);
  });

  test('"last used" is written on use, at most once a minute', async () => {
    const key = await makeKey('read');
    const lastUsed = async () =>
      (
        (await (await app.api('/api/api-keys', { token })).json()) as Array<{
          id: string;
          lastUsedAt: string | null;
        }>
      ).find((k) => k.id === key.id)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await app.api('/api/monitors', { token: `Bearer ${key.key}` });
    const first = await lastUsed();
    expect(first).not.toBeNull();
    await app.api('/api/monitors', { token: `Bearer ${key.key}` });
    expect(await lastUsed()).toBe(first);
  });

  test('at most 20 keys a user; bad input is a 400 with the field', async () => {
    const fresh = await app.signedInUser();
    for (let i = 0; i < 20; i++) {
      const response = await app.api('/api/api-keys', {
        token: fresh.token,
        method: 'POST',
        body: { name: `k${i}`, scope: 'read' },
      });
      expect(response.status).toBe(201);
    }
    const over = await app.api('/api/api-keys', {
      token: fresh.token,
      method: 'POST',
      body: { name: 'one more', scope: 'read' },
    });
    expect(over.status).toBe(409);
    expect(await apiErrorOf(over)).toMatchObject({ details: { limit: 20 } });
    const bad = await app.api('/api/api-keys', {
      token: fresh.token,
      method: 'POST',
      body: { name: '', scope: 'admin' },
    });
    expect(bad.status).toBe(400);
    expect(await apiErrorOf(bad)).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  test('the OpenAPI document names both schemes, and account routes take only the token', async () => {
    const doc = (await (await fetch(`${app.url}/api/openapi.json`)).json()) as {
      components: { securitySchemes: Record<string, { type: string; scheme?: string }> };
      paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>>;
    };
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.accessToken).toBeDefined();
    const schemes = (path: string, method: string) =>
      (doc.paths[path]?.[method]?.security ?? []).flatMap((entry) => Object.keys(entry));
    expect(schemes('/monitors', 'get')).toEqual(['accessToken', 'apiKey']);
    expect(schemes('/api-keys', 'post')).toEqual(['accessToken']);
    expect(schemes('/user', 'delete')).toEqual(['accessToken']);
  });
});

test('/docs/api is served with its bundled renderer, which names no font CDN', async () => {
  const app = await startTestApp();
  try {
    const page = await fetch(`${app.url}/docs/api`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<script src="/docs/api/scalar.js"></script>');
    expect(html).not.toMatch(/<script>|https?:\/\//);
    const bundle = await fetch(`${app.url}/docs/api/scalar.js`);
    expect(bundle.headers.get('content-type')).toMatch(/^text\/javascript/);
    const code = await bundle.text();
    expect(code).toContain('createApiReference');
    expect(code).not.toContain('fonts.scalar.com');
  } finally {
    await app.close();
  }
});

describe('API key rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { API_KEY_REQUESTS_PER_MINUTE: '3' } });
  });
  afterAll(() => app.close());

  test('past the requests a minute of one key: 429 with Retry-After; other keys go on', async () => {
    const user = await app.signedInUser();
    const keys: string[] = [];
    for (const name of ['busy', 'quiet']) {
      const response = await app.api('/api/api-keys', {
        token: user.token,
        method: 'POST',
        body: { name, scope: 'read' },
      });
      keys.push(((await response.json()) as { key: string }).key);
    }
    const [busy, quiet] = keys;
    for (let i = 0; i < 3; i++) {
      expect((await app.api('/api/monitors', { token: `Bearer ${busy}` })).status).toBe(200);
    }
    const limited = await app.api('/api/monitors', { token: `Bearer ${busy}` });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await apiErrorOf(limited)).code).toBe('RATE_LIMITED');
    expect((await app.api('/api/monitors', { token: `Bearer ${quiet}` })).status).toBe(200);
  });
});

describeServer('API keys on two web processes', (server) => {
  const processes: AppProcess[] = [];
  afterAll(async () => {
    for (const process of processes) await process.stop('SIGKILL');
  });

  test('a revoked key is refused at once by every process', async () => {
    const env = { DATABASE_URL: server().url, SOURCES: 'none' };
    processes.push(...(await Promise.all([startAppProcess({ env }), startAppProcess({ env })])));
    const db = server().handle.db;
    const user = await createUser(db);
    const made = await createApiKey(
      { db },
      { userId: user.id, body: { name: 'ci', scope: 'read' } },
    );
    const status = async (url: string) =>
      (await fetch(`${url}/api/monitors`, { headers: { Authorization: `Bearer ${made.key}` } }))
        .status;
    for (const process of processes) expect(await status(process.url)).toBe(200);
    await revokeApiKey({ db }, { userId: user.id, keyId: made.id });
    for (const process of processes) expect(await status(process.url)).toBe(401);
  });
});
