import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  computeSecretHash,
  createClientId,
  createClientSecret,
  createCode,
  createRefreshToken,
  createUserPoolId,
  equalSecrets,
  hashCode,
} from './secrets.ts';

describe('identifiers and secrets', () => {
  test('have AWS’s formats', () => {
    expect(createUserPoolId('us-east-2')).toMatch(/^us-east-2_[A-Za-z0-9]{9}$/);
    expect(createClientId()).toMatch(/^[a-z0-9]{26}$/);
    expect(createClientSecret()).toMatch(/^[a-z0-9]{51}$/);
    expect(createRefreshToken()).toMatch(/^[A-Za-z0-9_-]{86}$/);
  });

  test('codes are six digits, leading zeros kept, and vary', () => {
    const codes = new Set(Array.from({ length: 200 }, createCode));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
  });

  test('a code hash is bound to the address and the purpose', () => {
    const hashed = hashCode('123456', 'a@example.com', 'signup');
    expect(hashed).not.toContain('123456');
    expect(hashCode('123456', 'a@example.com', 'signup')).toBe(hashed);
    expect(hashCode('123456', 'b@example.com', 'signup')).not.toBe(hashed);
    expect(hashCode('123456', 'a@example.com', 'reset')).not.toBe(hashed);
  });

  test('SecretHash is Base64(HMAC-SHA256(secret, username + clientId))', () => {
    const expected = createHmac('sha256', 'secret')
      .update('alice@example.comclient123')
      .digest('base64');
    expect(computeSecretHash('secret', 'alice@example.com', 'client123')).toBe(expected);
  });

  test('equalSecrets compares whole strings', () => {
    expect(equalSecrets('abc', 'abc')).toBe(true);
    expect(equalSecrets('abc', 'abd')).toBe(false);
    expect(equalSecrets('abc', 'abcd')).toBe(false);
  });
});
