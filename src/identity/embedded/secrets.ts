import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/**
 * Identifiers in AWS's formats and the random secrets of the service. Everything random comes
 * from the operating system's CSPRNG.
 */

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789';
const ALNUM = `ABCDEFGHIJKLMNOPQRSTUVWXYZ${LOWER_ALNUM}`;

function randomString(alphabet: string, length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** `us-east-2_AbC123xYz`: the region, an underscore and nine letters or digits. */
export function createUserPoolId(region: string): string {
  return `${region}_${randomString(ALNUM, 9)}`;
}

/** 26 lower-case letters and digits, like every Cognito app client id. */
export function createClientId(): string {
  return randomString(LOWER_ALNUM, 26);
}

/** 51 lower-case letters and digits, like Cognito's generated client secrets. */
export function createClientSecret(): string {
  return randomString(LOWER_ALNUM, 51);
}

/** An opaque refresh token: 64 random bytes, base64url. Only its SHA-256 is stored. */
export function createRefreshToken(): string {
  return randomBytes(64).toString('base64url');
}

/** A 6-digit code, leading zeros kept. */
export function createCode(): string {
  return String(randomInt(1_000_000)).padStart(6, '0');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

/**
 * A code's stored form: an HMAC bound to the address and purpose. Six digits cannot resist an
 * offline search, so what protects codes is their short life, single use and attempt limits;
 * the hash keeps them out of sight of anyone reading the table.
 */
export function hashCode(code: string, email: string, purpose: string): string {
  return createHmac('sha256', `${purpose}:${email}`).update(code).digest('base64url');
}

/** `Base64(HMAC_SHA256(key = client secret, message = username + client id))`. */
export function computeSecretHash(secret: string, username: string, clientId: string): string {
  return createHmac('sha256', secret)
    .update(username + clientId)
    .digest('base64');
}

export function equalSecrets(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
