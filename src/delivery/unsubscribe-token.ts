import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Database } from '../db/client.ts';
import { loadServerSecret } from '../db/server-secret.ts';
import { createMuteTokens, type MuteTokens } from './mute-token.ts';

/**
 * Unsubscribe tokens: `<user id as 22 base64url characters>.<43 base64url characters of
 * HMAC-SHA256>`. The HMAC covers a purpose label and the user id, under a key used for nothing
 * else (UNSUBSCRIBE_SECRET, or a secret made on first start and kept in the database), so a token
 * is bound to one user, cannot be forged or altered, and means nothing anywhere else. No expiry:
 * an unsubscribe link in an old email must still work.
 */

const PURPOSE = 'earshot:unsubscribe:v1:';
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export type UnsubscribeTokens = MuteTokens & {
  sign(userId: string): string;
  /** The user id of a genuine token; null for anything else. */
  verify(token: string): string | null;
  /**
   * The token of an alert email's "relevant" / "not relevant" link for one match: the same key
   * and rules, another purpose label, so neither kind of token stands for the other.
   */
  signRating(matchId: string, rating: 'relevant' | 'irrelevant'): string;
  /** The match and rating of a genuine rating token; null for anything else. */
  verifyRating(token: string): { matchId: string; rating: 'relevant' | 'irrelevant' } | null;
};

const RATING_PURPOSE = 'earshot:rating:v1:';
const RATING_SHAPE = /^([1-9][0-9]{0,15})\.([ri])\.([A-Za-z0-9_-]{43})$/;

/** Unsubscribe tokens, and the mute tokens made with the same key (mute-token.ts). */
export function createUnsubscribeTokens(key: string): UnsubscribeTokens {
  const mac = (userId: string) =>
    createHmac('sha256', key)
      .update(PURPOSE + userId)
      .digest();
  const ratingMac = (matchId: string, letter: string) =>
    createHmac('sha256', key).update(`${RATING_PURPOSE}${matchId}.${letter}`).digest();
  return {
    ...createMuteTokens(key),
    sign(userId) {
      const id = Buffer.from(userId.replaceAll('-', ''), 'hex');
      if (!UUID_SHAPE.test(userId) || id.length !== 16) throw new Error('Not a user id.');
      return `${id.toString('base64url')}.${mac(userId).toString('base64url')}`;
    },
    verify(token) {
      const parts = TOKEN_SHAPE.exec(token);
      if (!parts?.[1] || !parts[2]) return null;
      const id = Buffer.from(parts[1], 'base64url');
      const given = Buffer.from(parts[2], 'base64url');
      // base64url can decode more than one spelling to the same bytes: insist on the canonical one.
      if (id.toString('base64url') !== parts[1] || given.toString('base64url') !== parts[2])
        return null;
      if (id.length !== 16 || given.length !== 32) return null;
      const hex = id.toString('hex');
      const userId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      return timingSafeEqual(mac(userId), given) ? userId : null;
    },
    signRating(matchId, rating) {
      if (!/^[1-9][0-9]{0,15}$/.test(matchId)) throw new Error('Not a match id.');
      const letter = rating === 'relevant' ? 'r' : 'i';
      return `${matchId}.${letter}.${ratingMac(matchId, letter).toString('base64url')}`;
    },
    verifyRating(token) {
      const parts = RATING_SHAPE.exec(token);
      if (!parts?.[1] || !parts[2] || !parts[3]) return null;
      const given = Buffer.from(parts[3], 'base64url');
      if (given.toString('base64url') !== parts[3] || given.length !== 32) return null;
      if (!timingSafeEqual(ratingMac(parts[1], parts[2]), given)) return null;
      return { matchId: parts[1], rating: parts[2] === 'r' ? 'relevant' : 'irrelevant' };
    },
  };
}

/** The tokens of this deployment: UNSUBSCRIBE_SECRET when set, else the stored secret. */
export async function loadUnsubscribeTokens(
  db: Database,
  configured: string | undefined,
): Promise<UnsubscribeTokens> {
  return createUnsubscribeTokens(configured ?? (await loadServerSecret(db, 'unsubscribe')));
}
