import { hash, parseOptions } from '@node-rs/argon2';
import { describe, expect, test } from 'vitest';
import { CognitoError } from './errors.ts';
import {
  checkPasswordPolicy,
  createPasswordHasher,
  DEFAULT_PASSWORD_POLICY,
  OWASP_MINIMUM_COST,
} from './passwords.ts';

const reasonOf = (password: string) => {
  try {
    checkPasswordPolicy(password, DEFAULT_PASSWORD_POLICY);
    return 'ok';
  } catch (error) {
    expect(error).toBeInstanceOf(CognitoError);
    expect((error as CognitoError).type).toBe('InvalidPasswordException');
    return (error as CognitoError).message.replace('Password did not conform with policy: ', '');
  }
};

describe('checkPasswordPolicy', () => {
  test.each([
    ['Aa1!aaa', 'Password not long enough'],
    ['aaaaaa1!', 'Password must have uppercase characters'],
    ['AAAAAA1!', 'Password must have lowercase characters'],
    ['Aaaaaaa!', 'Password must have numeric characters'],
    ['Aaaaaaa1', 'Password must have symbol characters'],
    ['Aaaaaa1 a', 'ok'],
    ['Aaaaaa1^', 'ok'],
    ['Aaaaaa1`', 'ok'],
    ['Ééééé1!a', 'Password must have uppercase characters'],
    ['Aé1!€€€€', 'Password must have lowercase characters'],
  ])('%s → %s', (password, reason) => {
    expect(reasonOf(password)).toBe(reason);
  });

  test('counts characters, not UTF-16 units', () => {
    expect(reasonOf('A1!a😀😀😀')).toBe('Password not long enough');
  });

  test('a relaxed policy', () => {
    expect(() =>
      checkPasswordPolicy('simplepass', {
        ...DEFAULT_PASSWORD_POLICY,
        requireUppercase: false,
        requireNumbers: false,
        requireSymbols: false,
      }),
    ).not.toThrow();
  });
});

describe('createPasswordHasher', () => {
  const hasher = createPasswordHasher(OWASP_MINIMUM_COST);

  test('hashes with argon2id at the OWASP minimum and verifies', async () => {
    const stored = await hasher.hash('Correct-Horse-9');
    expect(stored.startsWith('$argon2id$v=19$m=19456,t=2,p=1$')).toBe(true);
    expect(await hasher.verify(stored, 'Correct-Horse-9')).toBe(true);
    expect(await hasher.verify(stored, 'Correct-Horse-8')).toBe(false);
    expect(await hasher.verify('garbage', 'Correct-Horse-9')).toBe(false);
  });

  test('an unknown user still costs a verification and never matches', async () => {
    const started = performance.now();
    expect(await hasher.verify(null, 'not a password of anyone')).toBe(false);
    expect(performance.now() - started).toBeGreaterThan(1);
  });

  test('asks for a rehash when the stored cost is below the current one', async () => {
    const weak = await hash('x', { memoryCost: 8192, timeCost: 2 });
    expect(hasher.needsRehash(weak)).toBe(true);
    expect(hasher.needsRehash(await hasher.hash('x'))).toBe(false);
    const stronger = createPasswordHasher({ memoryKib: 19_456, passes: 3 });
    expect(stronger.needsRehash(await hasher.hash('x'))).toBe(true);
    expect(parseOptions(await stronger.hash('x')).timeCost).toBe(3);
  });
});
