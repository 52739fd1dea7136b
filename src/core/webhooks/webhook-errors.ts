import { NotFoundError, ValidationError } from '../errors.ts';

/** No such monitor for this user (or not theirs): both read the same to the caller. */
export function monitorNotFound(): NotFoundError {
  return new NotFoundError('There is no such monitor.');
}

/** The webhook URL breaks a rule (https only, no private address). */
export function webhookUrlInvalid(problem: string): ValidationError {
  const message = `The webhook URL ${problem}.`;
  return new ValidationError(message, [{ path: 'webhook.url', message: problem }]);
}

/** The monitor has no webhook to test. */
export function noWebhook(): NotFoundError {
  return new NotFoundError('This monitor has no webhook. Add one first.');
}
