/** No such monitor for this user (or not theirs): both read the same to the caller. */
export class MonitorNotFoundError extends Error {
  override name = 'MonitorNotFoundError';
  constructor() {
    super('There is no such monitor.');
  }
}

/** The webhook URL breaks a rule (https only, no private address); `field` names the input. */
export class WebhookUrlError extends Error {
  override name = 'WebhookUrlError';
  readonly field = 'webhook.url';
}

/** The monitor has no webhook to test. */
export class NoWebhookError extends Error {
  override name = 'NoWebhookError';
  constructor() {
    super('This monitor has no webhook. Add one first.');
  }
}
