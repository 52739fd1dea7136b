import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// The API's outer shape: health, config, unknown paths, errors and headers, over real HTTP.
describe('the API surface', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ smtp: false });
  });
  afterAll(async () => {
    await app?.close();
  });

  test('GET /api/health reports the version, uptime and database', async () => {
    const response = await app.api('/api/health');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 'ok', version: 'test', database: { ok: true } });
    expect(Number.isInteger(body.uptimeSeconds)).toBe(true);
  });

  test('GET /api/config names the embedded identity service and no analytics', async () => {
    const body = (await (await app.api('/api/config')).json()) as {
      identity: { endpoint: string; region: string; userPoolId: string; clientId: string };
      analytics: unknown;
    };
    expect(body.identity.endpoint).toBe(`${app.url}/idp`);
    expect(body.identity.region).toBe('us-east-2');
    expect(body.identity.userPoolId).toMatch(/^us-east-2_[A-Za-z0-9]+$/);
    expect(body.identity.clientId).toMatch(/^[a-z0-9]{26}$/);
    expect(body.analytics).toBeNull();
  });

  test.each([
    ['GET', '/api/nope'],
    ['GET', '/api/users'],
    ['POST', '/api/monitors/x/y'],
    ['GET', '/api'],
  ])('%s %s answers 404 in the JSON error shape, signed in or not', async (method, path) => {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    for (const token of [undefined, AccessToken]) {
      const response = await app.api(path, { method, ...(token ? { token } : {}) });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('NOT_FOUND');
      expect(body.error.message).toContain(path);
    }
  });

  test('a protected path without a token is 401, not 404', async () => {
    const response = await app.api('/api/user');
    expect(response.status).toBe(401);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'UNAUTHORIZED',
    );
  });

  test('malformed JSON and oversized bodies get a clear 4xx, never a 500', async () => {
    const user = await app.createUser();
    const { AccessToken } = await app.signIn(user);
    const malformed = await fetch(`${app.url}/api/user`, {
      method: 'PUT',
      headers: { Authorization: AccessToken, 'Content-Type': 'application/json' },
      body: '{"firstName": ',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { error: { code: string } }).error.code).toMatch(
      /INVALID_JSON|BAD_REQUEST|VALIDATION_FAILED/,
    );
    // Its own connection: the server answers before reading the whole body, then closes it.
    const huge = await sendOnFreshConnection(`${app.url}/api/user`, {
      method: 'PUT',
      headers: { Authorization: AccessToken, 'Content-Type': 'application/json' },
      body: JSON.stringify({ firstName: 'x'.repeat(300 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect((JSON.parse(huge.body) as { error: { code: string } }).error.code).toBe(
      'PAYLOAD_TOO_LARGE',
    );
  });

  test('every answer carries the security headers', async () => {
    const response = await app.api('/api/health');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
  });

  test('the OpenAPI document lists the routes', async () => {
    const document = (await (await app.api('/api/openapi.json')).json()) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/health', '/config', '/user']),
    );
  });
});

function sendOnFreshConnection(
  url: string,
  options: { method: string; headers: Record<string, string>; body: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method, headers: options.headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
