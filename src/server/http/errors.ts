import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { API_ERROR_STATUS, type ApiErrorBody, type ApiErrorCode } from '../../shared/api-error.ts';
import type { Logger } from '../logger.ts';

/** Thrown by domain code and handlers; `onError` turns it into the JSON error shape. */
export class AppError extends Error {
  override name = 'AppError';
  readonly code: ApiErrorCode;
  readonly details: unknown;

  constructor(code: ApiErrorCode, message: string, details?: unknown) {
    super(message);
    this.code = code;
    this.details = details;
  }

  get status(): ContentfulStatusCode {
    return API_ERROR_STATUS[this.code];
  }
}

export function errorBody(code: ApiErrorCode, message: string, details?: unknown): ApiErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

export function jsonError(c: Context, code: ApiErrorCode, message: string, details?: unknown) {
  return c.json(errorBody(code, message, details), API_ERROR_STATUS[code]);
}

/** Field-by-field problems of a zod failure, in a shape the web forms can show next to fields. */
export function validationDetails(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((issue) => ({
    path: issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

export function validationError(error: z.ZodError, what = 'The request'): AppError {
  const first = error.issues[0];
  const where = first && first.path.length > 0 ? ` (${first.path.join('.')})` : '';
  return new AppError(
    'VALIDATION_FAILED',
    `${what} is not valid${where}: ${first?.message ?? 'check the fields and try again'}.`,
    validationDetails(error),
  );
}

/**
 * The one place errors become responses. Expected errors are answered as they are; anything
 * else is logged with its stack and answered as a 500 without internals.
 */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof AppError) {
      return jsonError(c, error.code, error.message, error.details);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      if (status === 413)
        return jsonError(c, 'PAYLOAD_TOO_LARGE', 'The request body is too large.');
      if (status === 401)
        return jsonError(c, 'UNAUTHORIZED', error.message || 'Sign in to continue.');
      if (status < 500)
        return jsonError(c, 'BAD_REQUEST', error.message || 'The request is not valid.');
    }
    logger.error({ err: error, path: c.req.path, method: c.req.method }, 'unhandled error');
    return jsonError(
      c,
      'INTERNAL',
      'Something went wrong on our side. Please try again in a moment.',
    );
  };
}
