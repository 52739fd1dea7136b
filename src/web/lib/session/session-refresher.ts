import type { TokenRecord } from '../token-record.ts';

export type RefreshOutcome = 'refreshed' | 'signed-out' | 'failed';

export type TokenStore = {
  read(): TokenRecord | null;
  write(record: TokenRecord): void;
  clear(): void;
};

export type SessionRefresherDeps = {
  store: TokenStore;
  /**
   * docs/product.md, "Accounts": InitiateAuth with the refresh-token flow; answers new access and
   * ID tokens.
   */
  refresh(
    refreshToken: string,
  ): Promise<{ AccessToken: string; IdToken: string; RefreshToken?: string | undefined }>;
  onRefreshed(record: TokenRecord): boolean;
  onSignedOut(): void;
  /** Name of an error thrown by `refresh` (NotAuthorizedException ends the session). */
  errorName(error: unknown): string;
  warn(message: string, error: unknown): void;
};

/**
 * docs/product.md, "The session in the browser": refreshes the access token with the refresh token,
 * merges the answer into the stored record and saves it. NotAuthorizedException ends the session
 * (record removed); any other error is reported and the caller goes on with what it has. Calls made
 * while a refresh is running share it, so two API calls at once trigger one refresh, and a caller
 * whose expired token was replaced by a refresh that just ended refreshes nothing.
 */
export function createSessionRefresher(
  deps: SessionRefresherDeps,
): (expired?: string) => Promise<RefreshOutcome> {
  let inflight: Promise<RefreshOutcome> | null = null;

  const endSession = (): RefreshOutcome => {
    deps.store.clear();
    deps.onSignedOut();
    return 'signed-out';
  };

  const run = async (): Promise<RefreshOutcome> => {
    const record = deps.store.read();
    if (!record?.RefreshToken) return endSession();
    try {
      const fresh = await deps.refresh(record.RefreshToken);
      const merged: TokenRecord = {
        ...record,
        AccessToken: fresh.AccessToken,
        IdToken: fresh.IdToken,
        RefreshToken: fresh.RefreshToken ?? record.RefreshToken,
      };
      deps.store.write(merged);
      return deps.onRefreshed(merged) ? 'refreshed' : endSession();
    } catch (error) {
      if (deps.errorName(error) === 'NotAuthorizedException') return endSession();
      deps.warn(
        'Earshot could not refresh the session; the request goes on with the current token.',
        error,
      );
      return 'failed';
    }
  };

  // `expired`: the access token the caller found expired (or refused). When the stored one is
  // another, a refresh that ended while the caller was on its way already replaced it.
  return (expired) => {
    if (!inflight && expired !== undefined) {
      const current = deps.store.read()?.AccessToken;
      if (current && current !== expired) return Promise.resolve('refreshed');
    }
    inflight ??= run().finally(() => {
      inflight = null;
    });
    return inflight;
  };
}
