import { createHash, randomBytes } from 'node:crypto';

/** Random bytes in a feed token: 192 bits, 32 base64url characters in the URL. */
const TOKEN_BYTES = 24;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** A new feed token and the hash that is stored of it. */
export function generateAlertFeedToken(): { token: string; hash: string } {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  return { token, hash: hashAlertFeedToken(token) };
}

export function isWellFormedAlertFeedToken(token: string): boolean {
  return TOKEN_PATTERN.test(token);
}

/**
 * SHA-256, hex. The row is found by this hash through a unique index: knowing when a lookup of a
 * hash fails early says nothing useful about a token that has 192 random bits.
 */
export function hashAlertFeedToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
