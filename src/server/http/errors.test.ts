import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  ConflictError,
  type DomainError,
  NotFoundError,
  RateLimitedError,
  UnauthenticatedError,
  ValidationError,
} from '../../core/errors.ts';
import { createLogger } from '../../platform/logger.ts';
import { apiErrorBodySchema } from '../../shared/api-error.ts';
import { createErrorHandler } from './errors.ts';

function appThrowing(error: Error) {
  const app = new Hono();
  app.onError(createErrorHandler(createLogger('silent')));
  app.get('/', () => {
    throw error;
  });
  return app;
}

async function answer(error: Error) {
  const response = await appThrowing(error).request('/');
  return { response, body: apiErrorBodySchema.parse(await response.json()) };
}

describe('the error handler', () => {
  const problems = z.object({ name: z.string().min(1) }).safeParse({ name: '' });
  if (problems.success) throw new Error('the schema should refuse an empty name');

  test.each<[DomainError, number, string]>([
    [new NotFoundError('No such monitor.'), 404, 'NOT_FOUND'],
    [new ConflictError('Already there.'), 409, 'CONFLICT'],
    [ValidationError.fromZod(problems.error, 'The monitor'), 400, 'VALIDATION_FAILED'],
    [new UnauthenticatedError('Sign in again.'), 401, 'UNAUTHORIZED'],
    [new RateLimitedError('Slow down.', 30), 429, 'RATE_LIMITED'],
  ])('answers %s with its status and code', async (error, status, code) => {
    const { response, body } = await answer(error);
    expect(response.status).toBe(status);
    expect(body.error).toEqual({
      code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    });
  });

  test('a validation error lists each field problem and names the first in its message', async () => {
    const { body } = await answer(ValidationError.fromZod(problems.error, 'The monitor'));
    expect(body.error.message).toMatch(/^The monitor is not valid \(name\): /);
    expect(body.error.details).toEqual([{ path: 'name', message: expect.any(String) }]);
  });

  test('a rate limit says when to come back', async () => {
    const { response } = await answer(new RateLimitedError('Slow down.', 30));
    expect(response.headers.get('retry-after')).toBe('30');
  });

  test("Hono's own 4xx keeps its status in the JSON shape", async () => {
    const { response, body } = await answer(new HTTPException(400, { message: 'Malformed JSON' }));
    expect(response.status).toBe(400);
    expect(body.error).toEqual({ code: 'BAD_REQUEST', message: 'Malformed JSON' });
  });

  test('anything else is a 500 that carries no internals', async () => {
    const { response, body } = await answer(new Error('connection string postgres://secret@db'));
    expect(response.status).toBe(500);
    expect(body.error.code).toBe('INTERNAL');
    expect(JSON.stringify(body)).not.toContain('secret');
  });
});
