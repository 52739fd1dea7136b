import { describe, expect, test } from 'vitest';
import { loggedOut, loginFailed, loginSucceeded, sessionSlice } from './session-slice.ts';

const reduce = sessionSlice.reducer;
const user = {
  id: 'u1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  token: 'tok',
  expires: 99,
};

describe('the session', () => {
  test('starts undetermined', () => {
    expect(reduce(undefined, { type: 'init' }).authState).toBe('UNDETERMINED');
  });

  test('a successful login stores the user, the token and its expiry, and stamps the attempt', () => {
    const state = reduce(undefined, loginSucceeded({ ...user, at: 1234 }));
    expect(state).toMatchObject({ ...user, attempted: 1234, authState: 'VALID_TOKEN' });
  });

  test('a failed login only stamps the attempt', () => {
    const before = reduce(undefined, { type: 'init' });
    const state = reduce(before, loginFailed({ at: 42 }));
    expect(state).toEqual({ ...before, attempted: 42 });
  });

  test('logout clears names, email, token, expiry and the auth state', () => {
    const signedIn = reduce(undefined, loginSucceeded({ ...user, at: 7 }));
    const state = reduce(signedIn, loggedOut());
    expect(state).toMatchObject({
      firstName: '',
      lastName: '',
      email: '',
      token: null,
      expires: null,
      id: null,
    });
    expect(state.authState).toBe('UNDETERMINED');
    expect(state.loggedOutByUser).toBe(true);
  });
});
