// The stored token record's shape, free of browser APIs so Node tests can use it too.

/** Spec §3: the session lives in localStorage under the key `token` as this record. */
export type TokenRecord = {
  AccessToken: string;
  RefreshToken?: string | undefined;
  IdToken: string;
};
