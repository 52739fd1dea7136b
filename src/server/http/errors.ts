import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { DomainError, RateLimitedError } from '../../core/errors.ts';
import type { Logger } from '../../platform/logger.ts';
import { API_ERROR_STATUS, type ApiErrorBody, type ApiErrorCode } from '../../shared/api-error.ts';

/** The JSON error shape (`src/shared/api-error.ts`). */
export function errorBody(code: ApiErrorCode, message: string, details?: unknown): ApiErrorBody {
  return { error: details === undefined ? { code, message } : { code, message, details } };
}

/** For middleware that answers before any route runs (authentication, unknown paths, body limit). */
export function jsonError(c: Context, code: ApiErrorCode, message: string, details?: unknown) {
  return c.json(errorBody(code, message, details), API_ERROR_STATUS[code]);
}

/**
 * The one place errors become responses. Domain errors (src/core/errors.ts) and Hono's own 4xx
 * are answered with their code and status; anything else is logged with its stack and answered
 * as a 500 without internals.
 */
export function createErrorHandler(logger: Logger) {
  return (error: Error, c: Context) => {
    if (error instanceof DomainError) {
      if (error instanceof RateLimitedError)
        c.header('Retry-After', String(error.retryAfterSeconds));
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
