import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createUnsubscribeTokens } from './unsubscribe-token.ts';

const USER = '0b6f2a34-9c1d-4e5f-8a7b-1c2d3e4f5a6b';
const tokens = createUnsubscribeTokens('k'.repeat(43));

test('a token names its user and only its user', () => {
  const token = tokens.sign(USER);
  expect(tokens.verify(token)).toBe(USER);
  const other = tokens.sign('0b6f2a34-9c1d-4e5f-8a7b-1c2d3e4f5a6c');
  expect(other).not.toBe(token);
  // The signature of one user does not fit another's id.
  expect(tokens.verify(`${other.split('.')[0]}.${token.split('.')[1]}`)).toBeNull();
});

test('a token signed with another key is refused', () => {
  const forged = createUnsubscribeTokens('x'.repeat(43)).sign(USER);
  expect(tokens.verify(forged)).toBeNull();
});

test('every altered token is refused', () => {
  const token = tokens.sign(USER);
  fc.assert(
    fc.property(fc.nat(token.length - 1), fc.constantFrom(...'AbZz09_-.='), (at, char) => {
      const altered = token.slice(0, at) + char + token.slice(at + 1);
      fc.pre(altered !== token);
      expect(tokens.verify(altered)).toBeNull();
    }),
  );
  for (const bad of ['', '.', 'abc', `${token}x`, token.slice(1), token.replace('.', '')]) {
    expect(tokens.verify(bad)).toBeNull();
  }
});

test('a rating token names its match and rating; altered, forged or of the other kind, it is refused', () => {
  const token = tokens.signRating('1234', 'irrelevant');
  expect(tokens.verifyRating(token)).toEqual({ matchId: '1234', rating: 'irrelevant' });
  expect(tokens.verifyRating(tokens.signRating('1234', 'relevant'))).toEqual({
    matchId: '1234',
    rating: 'relevant',
  });
  expect(
    tokens.verifyRating(createUnsubscribeTokens('x'.repeat(43)).signRating('1234', 'relevant')),
  ).toBeNull();
  // Neither kind of token stands for the other.
  expect(tokens.verify(token)).toBeNull();
  expect(tokens.verifyRating(tokens.sign(USER))).toBeNull();
  fc.assert(
    fc.property(fc.nat(token.length - 1), fc.constantFrom(...'AbZz09_-.=ri'), (at, char) => {
      const altered = token.slice(0, at) + char + token.slice(at + 1);
      fc.pre(altered !== token);
      expect(tokens.verifyRating(altered)).toBeNull();
    }),
  );
});
