import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * docs/product.md, "The session in the browser": the auth gate's states. UNDETERMINED is the state
 * before the stored token is read.
 */
export type AuthState = 'UNDETERMINED' | 'VALID_TOKEN' | 'REFRESHING_TOKEN' | 'FAILED';

/**
 * docs/product.md, "The session in the browser": the user as the session knows it (client side).
 */
export type SessionState = {
  authState: AuthState;
  id: string | null;
  firstName: string;
  lastName: string;
  email: string;
  /** The access token, sent as the Authorization header. */
  token: string | null;
  /** When the access token expires, in milliseconds since the epoch. */
  expires: number | null;
  /** When the last sign-in was attempted, in milliseconds since the epoch. */
  attempted: number | null;
  /** True after the user chose Log Out: the gate then sends them to the plain login page. */
  loggedOutByUser: boolean;
};

export type SignedInUser = {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  token: string;
  expires: number;
};

const initialState: SessionState = {
  authState: 'UNDETERMINED',
  id: null,
  firstName: '',
  lastName: '',
  email: '',
  token: null,
  expires: null,
  attempted: null,
  loggedOutByUser: false,
};

export const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    /** Login success: stores id, names, email, token and expiry, and stamps the attempt time. */
    loginSucceeded(state, action: PayloadAction<SignedInUser & { at: number }>) {
      const { at, ...user } = action.payload;
      Object.assign(state, user, {
        attempted: at,
        authState: 'VALID_TOKEN' as const,
        loggedOutByUser: false,
      });
    },
    /** Login failure: only stamps the attempt time. */
    loginFailed(state, action: PayloadAction<{ at: number }>) {
      state.attempted = action.payload.at;
    },
    /** A valid stored token was found on load. */
    sessionRestored(state, action: PayloadAction<SignedInUser>) {
      Object.assign(state, action.payload, { authState: 'VALID_TOKEN' as const });
    },
    tokenRefreshed(
      state,
      action: PayloadAction<{
        token: string;
        expires: number;
        firstName?: string;
        lastName?: string;
      }>,
    ) {
      state.token = action.payload.token;
      state.expires = action.payload.expires;
      if (action.payload.firstName !== undefined) state.firstName = action.payload.firstName;
      if (action.payload.lastName !== undefined) state.lastName = action.payload.lastName;
      state.authState = 'VALID_TOKEN';
    },
    authStateChanged(state, action: PayloadAction<AuthState>) {
      state.authState = action.payload;
    },
    namesChanged(state, action: PayloadAction<{ firstName: string; lastName: string }>) {
      state.firstName = action.payload.firstName;
      state.lastName = action.payload.lastName;
    },
    /** Logout: clears names, email, token, expiry and the auth state (the caller clears storage). */
    loggedOut(state) {
      return { ...initialState, attempted: state.attempted, loggedOutByUser: true };
    },
  },
});

export const {
  loginSucceeded,
  loginFailed,
  sessionRestored,
  tokenRefreshed,
  authStateChanged,
  namesChanged,
  loggedOut,
} = sessionSlice.actions;
