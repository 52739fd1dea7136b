import { expect, test } from 'vitest';
import { readToken } from './require-auth.ts';

test('readToken takes the raw token, as the web app sends it, or a Bearer token', () => {
  expect(readToken('eyJ.abc.def')).toBe('eyJ.abc.def');
  expect(readToken('Bearer eyJ.abc.def')).toBe('eyJ.abc.def');
  expect(readToken('bearer   eyJ.abc.def ')).toBe('eyJ.abc.def');
  expect(readToken(undefined)).toBeUndefined();
  expect(readToken('')).toBeUndefined();
  expect(readToken('Bearer')).toBe('Bearer');
  expect(readToken('Bearer a b')).toBeUndefined();
  expect(readToken('Basic dXNlcjpwYXNz')).toBeUndefined();
});
