import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiErrorBodySchema } from '../../src/shared/api-error.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

// Every API route is declared through createApiRouter (src/server/http/api-router.ts), so input
// that fails a route's schema is answered as 400 VALIDATION_FAILED in the JSON error shape. This
// walks the routes the app really serves, so a route added another way fails here.

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
};
type Parameter = { name: string; in: string; required?: boolean; schema?: JsonSchema };
type Operation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
};
type OpenApiDocument = { paths: Record<string, Record<string, Operation>> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** A value that the parameter's schema refuses, when the schema says enough to find one. */
function invalidValueFor(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  const types = [schema.type ?? []].flat();
  if (types.includes('integer') || types.includes('number')) return 'not-a-number';
  // No boolean case: a query flag read with z.coerce.boolean() takes any text as true.
  if (schema.enum) return '~none-of-these~';
  if (schema.format === 'uuid') return 'not-a-uuid';
  if (schema.maxLength !== undefined) return 'x'.repeat(schema.maxLength + 1);
  if (schema.minLength !== undefined && schema.minLength > 0) return '';
  return undefined;
}

/** The request that breaks the operation's schema, or null when it takes no input to break. */
function invalidRequest(path: string, method: string, operation: Operation) {
  let broken = false;
  const url = new URL(`http://x/api${path}`);
  let pathname = `/api${path}`;
  for (const parameter of operation.parameters ?? []) {
    const invalid = invalidValueFor(parameter.schema);
    if (parameter.in === 'path') {
      if (invalid !== undefined) broken = true;
      pathname = pathname.replace(`{${parameter.name}}`, encodeURIComponent(invalid ?? 'x'));
    } else if (parameter.in === 'query') {
      // A required parameter left out is always refused.
      if (parameter.required) broken = true;
      else if (invalid !== undefined) {
        url.searchParams.set(parameter.name, invalid);
        broken = true;
      }
    }
  }
  const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
  let body: unknown;
  if (bodySchema) {
    // An array where an object is expected, or the other way round.
    body = [bodySchema.type ?? []].flat().includes('array') ? {} : [];
    broken = true;
  }
  if (!broken) return null;
  return { method: method.toUpperCase(), path: `${pathname}${url.search}`, body };
}

describe('API input validation', () => {
  let app: TestApp;
  let token: string;
  let document: OpenApiDocument;
  beforeAll(async () => {
    app = await startTestApp({ smtp: false });
    ({ token } = await app.signedInUser());
    document = (await (await app.api('/api/openapi.json')).json()) as OpenApiDocument;
  });
  afterAll(async () => {
    await app?.close();
  });

  test('every API route the app serves is declared in the OpenAPI document', () => {
    const documented = new Set(
      Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.keys(operations)
          .filter((method) => METHODS.includes(method))
          .map((method) => `${method.toUpperCase()} /api${path.replace(/\{(\w+)\}/g, ':$1')}`),
      ),
    );
    const served = app.app.routes
      .filter((route) => route.path.startsWith('/api/') && !route.path.includes('*'))
      .filter((route) => route.method !== 'ALL' && route.path !== '/api/openapi.json')
      .map((route) => `${route.method} ${route.path}`);
    expect(served.length).toBeGreaterThan(0);
    expect(served.filter((route) => !documented.has(route))).toEqual([]);
  });

  test('input that breaks a route’s schema answers 400 VALIDATION_FAILED in the JSON error shape', async () => {
    const probed: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        if (!METHODS.includes(method)) continue;
        const request = invalidRequest(path, method, operation);
        if (!request) continue;
        const response = await app.api(request.path, {
          method: request.method,
          token,
          ...(request.body !== undefined ? { body: request.body } : {}),
        });
        const where = `${request.method} ${request.path}`;
        expect(response.status, where).toBe(400);
        const body = apiErrorBodySchema.parse(await response.json());
        expect(body.error.code, where).toBe('VALIDATION_FAILED');
        expect(Array.isArray(body.error.details), where).toBe(true);
        probed.push(where);
      }
    }
    // PUT and POST /api/user take a body today; more routes join as they are added.
    expect(probed).toEqual(expect.arrayContaining(['PUT /api/user', 'POST /api/user']));
  });
});
