import type { Database } from '../../db/client.ts';
import { loadUnsubscribeTokens, type UnsubscribeTokens } from '../../delivery/unsubscribe-token.ts';

/**
 * The deployment's unsubscribe tokens for the web process's verbs (unsubscribe, test email):
 * loaded on first use and kept; a load that failed (the database down) is tried again on the
 * next call rather than remembered.
 */
export function createUnsubscribeTokenLoader(
  db: Database,
  configured: string | undefined,
): () => Promise<UnsubscribeTokens> {
  let tokens: Promise<UnsubscribeTokens> | undefined;
  return () => {
    tokens ??= loadUnsubscribeTokens(db, configured).catch((failure) => {
      tokens = undefined;
      throw failure;
    });
    return tokens;
  };
}
