// The stored token record's shape, free of browser APIs so Node tests can use it too.

/**
 * docs/product.md, "The session in the browser": the session lives in localStorage under the key
 * `token` as this record.
 */
export type TokenRecord = {
  AccessToken: string;
  RefreshToken?: string | undefined;
  IdToken: string;
};
