import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { users } from '../../src/db/schema/users.ts';
import { userRecordSchema } from '../../src/shared/user.ts';
import { apiErrorOf, startTestApp, type TestApp } from '../support/test-app.ts';

// GET/PUT/POST/DELETE /api/user with real tokens from the embedded identity service.
describe('/api/user', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  // These tests make the record themselves.
  const signedInUser = (names: { givenName?: string; familyName?: string } = {}) =>
    app.signedInUser({ ...names, record: false });

  test('GET is 404 until POST {} creates the record from the identity’s claims; POST is idempotent', async () => {
    const user = await signedInUser({ givenName: 'Margaret', familyName: 'Hamilton' });
    const before = await app.api('/api/user', { token: user.token });
    expect(before.status).toBe(404);
    expect((await apiErrorOf(before)).code).toBe('NOT_FOUND');

    const created = await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    expect(created.status).toBe(201);
    const record = userRecordSchema.parse(await created.json());
    expect(record).toEqual({
      id: user.sub,
      email: user.email,
      firstName: 'Margaret',
      lastName: 'Hamilton',
      timezone: 'UTC',
      emailAlerts: 'instant',
      quietHours: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const again = await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual(record);
    const read = await app.api('/api/user', { token: user.token });
    expect(read.status).toBe(200);
    expect(read.headers.get('cache-control')).toBe('no-store');
    expect(await read.json()).toEqual(record);
  });

  test('concurrent POSTs create one record', async () => {
    const user = await signedInUser();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.api('/api/user', { token: user.token, method: 'POST', body: {} }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 200, 200, 200, 201]);
    const bodies = await Promise.all(answers.map((answer) => answer.json()));
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
  });

  test('PUT changes any subset of names, time zone and e-mail alerts', async () => {
    const user = await signedInUser();
    await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    const put = (body: unknown) => app.api('/api/user', { token: user.token, method: 'PUT', body });

    const first = await put({ firstName: '  Ada  ', timezone: 'Europe/Paris' });
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({
      firstName: 'Ada',
      lastName: 'Lovelace',
      timezone: 'Europe/Paris',
    });
    for (const mode of ['hourly', 'daily', 'off', 'instant']) {
      expect(await (await put({ emailAlerts: mode })).json()).toMatchObject({ emailAlerts: mode });
    }
    expect(await (await put({ lastName: '' })).json()).toMatchObject({ lastName: '' });
    expect(await (await app.api('/api/user', { token: user.token })).json()).toMatchObject({
      firstName: 'Ada',
      lastName: '',
      timezone: 'Europe/Paris',
      emailAlerts: 'instant',
    });
  });

  test.each([
    [{ timezone: 'Mars/Olympus_Mons' }, 'timezone'],
    [{ emailAlerts: 'weekly' }, 'emailAlerts'],
    [{ quietHours: { start: '25:00', end: '07:00' } }, 'quietHours.start'],
    [{ quietHours: { start: '22:00', end: '22:00' } }, 'quietHours'],
    [{ quietHours: { start: '22:00' } }, 'quietHours.end'],
    [{ firstName: 'x'.repeat(101) }, 'firstName'],
    [{ firstName: 'tab\there' }, 'firstName'],
    [{ firstName: 'nul\u0000' }, 'firstName'],
    [{ lastName: 'Smith\r\nBcc: x' }, 'lastName'],
    [{ lastName: 'evil\u202etxt.exe' }, 'lastName'],
    [{ firstName: 'a\u2067b' }, 'firstName'],
    [{ firstName: 'a\u200fb' }, 'firstName'],
    [{ id: '00000000-0000-4000-8000-000000000000' }, ''],
    [{ email: 'someone@else.com' }, ''],
    [{}, ''],
    [[], ''],
  ])('PUT %o → 400 VALIDATION_FAILED naming %s', async (body, field) => {
    const user = await signedInUser();
    await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    const response = await app.api('/api/user', { token: user.token, method: 'PUT', body });
    expect(response.status).toBe(400);
    const error = (await apiErrorOf(response)) as { code: string; details: { path: string }[] };
    expect(error.code).toBe('VALIDATION_FAILED');
    if (field) expect(error.details[0]?.path).toBe(field);
  });

  test('quiet hours are set, read back and cleared', async () => {
    const user = await signedInUser();
    await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    const quietHours = { start: '22:30', end: '07:00' };
    const set = await app.api('/api/user', {
      token: user.token,
      method: 'PUT',
      body: { quietHours },
    });
    expect(set.status).toBe(200);
    expect(await (await app.api('/api/user', { token: user.token })).json()).toMatchObject({
      quietHours,
    });
    await app.api('/api/user', { token: user.token, method: 'PUT', body: { quietHours: null } });
    expect(await (await app.api('/api/user', { token: user.token })).json()).toMatchObject({
      quietHours: null,
    });
  });

  test('malformed JSON and a wrong content type are 400, never 500', async () => {
    const user = await signedInUser();
    await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    for (const [body, type] of [
      ['{', 'application/json'],
      ['firstName=Ada', 'application/x-www-form-urlencoded'],
    ] as const) {
      const response = await fetch(`${app.url}/api/user`, {
        method: 'PUT',
        headers: { Authorization: user.token, 'Content-Type': type },
        body,
      });
      expect(response.status, type).toBe(400);
      expect((await apiErrorOf(response)).code).toMatch(
        /BAD_REQUEST|VALIDATION_FAILED|INVALID_JSON/,
      );
    }
    const post = await app.api('/api/user', {
      token: user.token,
      method: 'POST',
      body: { firstName: 'x' },
    });
    expect(post.status).toBe(400);
  });

  test('PUT before POST is 404', async () => {
    const user = await signedInUser();
    const response = await app.api('/api/user', {
      token: user.token,
      method: 'PUT',
      body: { timezone: 'UTC' },
    });
    expect(response.status).toBe(404);
  });

  test('one user can neither read nor change another’s record', async () => {
    const alice = await signedInUser({ givenName: 'Alice' });
    const bob = await signedInUser({ givenName: 'Bob' });
    await app.api('/api/user', { token: alice.token, method: 'POST', body: {} });
    await app.api('/api/user', { token: bob.token, method: 'POST', body: {} });

    expect(await (await app.api('/api/user', { token: alice.token })).json()).toMatchObject({
      id: alice.sub,
      firstName: 'Alice',
    });
    await app.api('/api/user', {
      token: alice.token,
      method: 'PUT',
      body: { firstName: 'Alicia', timezone: 'Asia/Tokyo' },
    });
    expect(await (await app.api('/api/user', { token: bob.token })).json()).toMatchObject({
      id: bob.sub,
      firstName: 'Bob',
      timezone: 'UTC',
    });
    // An id in the body cannot redirect the write.
    const smuggled = await app.api('/api/user', {
      token: alice.token,
      method: 'PUT',
      body: { id: bob.sub, firstName: 'Mallory' },
    });
    expect(smuggled.status).toBe(400);
    // Deleting Alice leaves Bob.
    await app.api('/api/user', { token: alice.token, method: 'DELETE' });
    expect((await app.api('/api/user', { token: bob.token })).status).toBe(200);
  });

  test('DELETE removes every row of the user’s data and is idempotent', async () => {
    const user = await signedInUser();
    await app.api('/api/user', { token: user.token, method: 'POST', body: {} });
    const first = await app.api('/api/user', { token: user.token, method: 'DELETE' });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    expect((await app.api('/api/user', { token: user.token })).status).toBe(404);
    const rows = await app.database.db.select().from(users);
    expect(rows.some((row) => row.id === user.sub)).toBe(false);
    expect((await app.api('/api/user', { token: user.token, method: 'DELETE' })).status).toBe(204);
  });

  test('the OpenAPI document describes /user and its token', async () => {
    const document = (await (await app.api('/api/openapi.json')).json()) as {
      paths: Record<string, object>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(Object.keys(document.paths['/user'] ?? {})).toEqual(['get', 'put', 'post', 'delete']);
    expect(document.components.securitySchemes.accessToken).toMatchObject({
      type: 'apiKey',
      name: 'Authorization',
    });
  });

  test('every /api/user verb needs a token', async () => {
    for (const method of ['GET', 'PUT', 'POST', 'DELETE']) {
      const response = await app.api('/api/user', {
        method,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: {} }),
      });
      expect(response.status, method).toBe(401);
    }
  });
});
