import type { z } from 'zod';
import type { ApiErrorCode } from '../shared/api-error.ts';

/**
 * The closed set of ways a domain verb fails on purpose. Verbs throw these; they know nothing of
 * HTTP. The server's one error handler turns each into its status and the JSON error shape (the
 * code is the wire code of `src/shared/api-error.ts`), and a worker can branch on the class.
 * Anything else a verb throws is a bug and is answered as an internal error.
 */
export type DomainErrorCode = Extract<
  ApiErrorCode,
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'VALIDATION_FAILED'
  | 'LIMIT_REACHED'
  | 'UNAUTHORIZED'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
>;

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  /** Machine-readable facts for the client (field problems, a limit); never internals. */
  readonly details: unknown;

  constructor(message: string, details?: unknown) {
    super(message);
    this.details = details;
  }
}

/** The thing does not exist, or belongs to someone else: both read the same to the caller. */
export class NotFoundError extends DomainError {
  override name = 'NotFoundError';
  readonly code = 'NOT_FOUND';
}

/** The change contradicts what is already stored (a duplicate, a stale version). */
export class ConflictError extends DomainError {
  override name = 'ConflictError';
  readonly code = 'CONFLICT';
}

/** One problem with one field of the input; `path` is dotted (`filters.0.site`), '' for the whole. */
export type FieldProblem = { path: string; message: string };

/** The input breaks a rule; `details` lists every problem, so a form can show each by its field. */
export class ValidationError extends DomainError {
  override name = 'ValidationError';
  readonly code = 'VALIDATION_FAILED';
  declare readonly details: FieldProblem[];

  constructor(message: string, problems: FieldProblem[]) {
    super(message, problems);
  }

  /** Every issue of a zod failure; the message names the first, `what` names the input. */
  static fromZod(error: z.ZodError, what = 'The request'): ValidationError {
    const first = error.issues[0];
    const where = first && first.path.length > 0 ? ` (${first.path.join('.')})` : '';
    return new ValidationError(
      `${what} is not valid${where}: ${first?.message ?? 'check the fields and try again'}.`,
      error.issues.map((issue) => ({
        path: issue.path.map(String).join('.'),
        message: issue.message,
      })),
    );
  }
}

/** The identity behind the request no longer exists or was signed out since it was checked. */
export class UnauthenticatedError extends DomainError {
  override name = 'UnauthenticatedError';
  readonly code = 'UNAUTHORIZED';
}

/** Too many attempts; the caller may try again after `retryAfterSeconds`. */
export class RateLimitedError extends DomainError {
  override name = 'RateLimitedError';
  readonly code = 'RATE_LIMITED';
  readonly retryAfterSeconds: number;

  constructor(message: string, retryAfterSeconds: number) {
    super(message);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** A per-user limit on how many of a thing one may have; `details.limit` says how many. */
export class LimitReachedError extends DomainError {
  override name = 'LimitReachedError';
  readonly code = 'LIMIT_REACHED';
}
