import type { z } from 'zod';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Logger } from '../../platform/logger.ts';
import type { Mailer } from '../../platform/mailer.ts';
import type { AccessTokenVerifier } from '../verify-access-token.ts';
import type { SigningKeys } from './keys.ts';
import type { Limiter } from './limits.ts';
import type { PasswordHasher, PasswordPolicy } from './passwords.ts';

/** Everything an operation needs; built once by createEmbeddedIdentity. */
export type ServiceContext = {
  db: Database;
  clock: Clock;
  logger: Logger;
  mailer: Mailer;
  pool: { region: string; userPoolId: string; webClientId: string; issuer: string };
  keys: SigningKeys;
  /** Verifies the service's own access tokens for any of its clients (no session check). */
  verifyToken: AccessTokenVerifier;
  passwords: PasswordHasher;
  passwordPolicy: PasswordPolicy;
  limiter: Limiter;
  /**
   * Runs `task` after the current request has been answered; a failure is logged with
   * `failureMessage`. The service waits for such tasks when it closes.
   */
  afterAnswer(task: () => Promise<void>, failureMessage: string): void;
  lifetimes: {
    accessTokenSeconds: number;
    refreshTokenSeconds: number;
    signUpCodeSeconds: number;
    resetCodeSeconds: number;
  };
};

/** Facts about the HTTP request an operation may use (never logged with the body). */
export type RequestInfo = { ip: string; requestId: string };

/** One Cognito operation: its input schema (Cognito's member names) and what it does. */
export type Operation<Schema extends z.ZodType = z.ZodType> = {
  input: Schema;
  run(
    ctx: ServiceContext,
    input: z.infer<Schema>,
    request: RequestInfo,
  ): Promise<Record<string, unknown>>;
};

export function defineOperation<Schema extends z.ZodType>(
  operation: Operation<Schema>,
): Operation<Schema> {
  return operation;
}
