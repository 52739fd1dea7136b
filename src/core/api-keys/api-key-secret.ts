import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '../../shared/api-keys.ts';

/** Random bytes in a key: 192 bits, well past the 128 an unguessable secret needs. */
const KEY_BYTES = 24;
/** Characters of the random part kept in `prefix`: they find the row and tell keys apart. */
const PREFIX_CHARS = 8;
const KEY_PATTERN = /^esk_[A-Za-z0-9_-]{32}$/;

/** A new key: `esk_` and 32 base64url characters; its shown prefix and stored hash. */
export function generateApiKey(): { key: string; prefix: string; hash: string } {
  const key = API_KEY_PREFIX + randomBytes(KEY_BYTES).toString('base64url');
  return { key, prefix: apiKeyPrefix(key), hash: hashApiKey(key) };
}

/** Whether a bearer token is shaped like an API key (anything else is an access token). */
export function looksLikeApiKey(token: string): boolean {
  return token.startsWith(API_KEY_PREFIX);
}

export function isWellFormedApiKey(token: string): boolean {
  return KEY_PATTERN.test(token);
}

export function apiKeyPrefix(key: string): string {
  return key.slice(0, API_KEY_PREFIX.length + PREFIX_CHARS);
}

/**
 * SHA-256, hex. A slow password hash buys nothing here: nobody can guess 192 random bits, and
 * every API request would pay for it.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Compares two hex hashes in constant time. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
