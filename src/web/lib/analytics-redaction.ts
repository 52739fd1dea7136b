/**
 * What PostHog must never receive: the secrets some URLs carry (the unsubscribe page's `token`, a
 * live-feed `ticket`, any OAuth-style token). PostHog copies URLs into many places: every
 * event's `$current_url`, `$referrer` and `$initial_*` properties, session recordings (page
 * addresses, link targets, network timings). Each secret parameter's value is replaced wherever
 * it appears, so the page views stay (`/unsubscribe?token=[redacted]`) without the key to act.
 */
const SECRET_PARAMETERS = [
  'token',
  'ticket',
  'unsubscribeToken',
  'access_token',
  'id_token',
  'refresh_token',
  'code',
];
const SECRET_IN_URL = new RegExp(
  `([?&#;]|%3F|%26)(${SECRET_PARAMETERS.join('|')})(=|%3D)(?:(?!%26|%23)[^&#\\s"'<>;])*`,
  'gi',
);
export const REDACTED = '[redacted]';

/** `value` with the value of every secret parameter replaced. */
export function redactUrl(value: string): string {
  SECRET_IN_URL.lastIndex = 0;
  if (!SECRET_IN_URL.test(value)) return value;
  return value.replace(SECRET_IN_URL, (_all, before, name, equals) => {
    return `${before}${name}${equals}${REDACTED}`;
  });
}

/**
 * Redacts every string inside `value` (objects and arrays walked, in place) and returns it: for
 * an event about to be sent, properties and recording snapshots alike.
 */
export function redactSecrets<T>(value: T): T {
  if (typeof value === 'string') return redactUrl(value) as T;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = redactSecrets(value[i]);
    return value;
  }
  if (value && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = redactSecrets(record[key]);
  }
  return value;
}
