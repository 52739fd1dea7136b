import { describe, expect, test } from 'vitest';
import { isEmail, normalizeEmail, readAttributeChanges } from './attributes.ts';
import { CognitoError } from './errors.ts';
import { maskEmail } from './store.ts';

describe('readAttributeChanges', () => {
  test('reads e-mail (lower-cased) and trimmed names; an empty name clears it', () => {
    expect(
      readAttributeChanges([
        { Name: 'email', Value: 'Ada@Example.com' },
        { Name: 'given_name', Value: '  Ada ' },
        { Name: 'family_name', Value: '' },
      ]),
    ).toEqual({ email: 'ada@example.com', givenName: 'Ada', familyName: null });
  });

  test.each([
    ['sub', 'A client attempted to write unauthorized attribute'],
    ['email_verified', 'A client attempted to write unauthorized attribute'],
    [
      'custom:x',
      'Attributes did not conform to the schema: Type for attribute {custom:x} could not be determined',
    ],
  ])('refuses %s', (name, message) => {
    expect(() => readAttributeChanges([{ Name: name, Value: 'x' }])).toThrowError(
      new CognitoError('InvalidParameterException', message),
    );
  });

  test('refuses a name given twice', () => {
    expect(() =>
      readAttributeChanges([
        { Name: 'given_name', Value: 'a' },
        { Name: 'given_name', Value: 'b' },
      ]),
    ).toThrow(CognitoError);
  });
});

test('isEmail accepts plain addr-spec addresses only', () => {
  for (const good of [
    'a@b.co',
    'first.last+tag@sub.example.org',
    'zoë@exämple.com',
    "o'hara@x.ie",
  ]) {
    expect(isEmail(good), good).toBe(true);
  }
  for (const bad of [
    'x<attacker@evil.com>',
    'victim@corp.com(1)a.b',
    '"quoted"@example.com',
    'a@example.com,b@example.com',
    'a..b@example.com',
    '.a@example.com',
    'a@-example.com',
    'a@example.com\u0000',
    'a@exa\u202emple.com',
  ]) {
    expect(isEmail(bad), bad).toBe(false);
  }
});

test('normalizeEmail: NFKC, then lower case', () => {
  expect(normalizeEmail(' Zo\u0065\u0308@Example.COM ')).toBe('zo\u00eb@example.com');
  expect(normalizeEmail('\uff21@example.com')).toBe('a@example.com');
});

test('control and bidirectional formatting characters are refused in any attribute', () => {
  for (const value of ['a\u0000', 'a\u0007b', 'a\u202eb', 'a\u2066b', 'a\u0085']) {
    expect(() => readAttributeChanges([{ Name: 'given_name', Value: value }])).toThrow(
      CognitoError,
    );
  }
});

test('isEmail and maskEmail', () => {
  expect(isEmail('a@b.co')).toBe(true);
  expect(isEmail('a@b')).toBe(false);
  expect(isEmail('a b@c.de')).toBe(false);
  expect(maskEmail('test@test.com')).toBe('t***@t***');
});
