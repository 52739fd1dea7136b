import { describe, expect, test } from 'vitest';
import { isEmail, readAttributeChanges } from './attributes.ts';
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

test('isEmail and maskEmail', () => {
  expect(isEmail('a@b.co')).toBe(true);
  expect(isEmail('a@b')).toBe(false);
  expect(isEmail('a b@c.de')).toBe(false);
  expect(maskEmail('test@test.com')).toBe('t***@t***');
});
