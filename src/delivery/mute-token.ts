import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Match } from '../shared/match.ts';
import { SOURCE_NAMES } from '../shared/sources.ts';

/**
 * Mute tokens, the one-click links of an alert email's entries (decision 0038): "mute this
 * thread", "mute <author>", "mute r/<community>" for one monitor. `<payload as base64url
 * JSON>.<43 base64url characters of HMAC-SHA256>`, under the unsubscribe key with a purpose
 * label of their own, so a token is bound to one user and one monitor, cannot be altered or
 * forged, and an unsubscribe token is not a mute token (nor the reverse). No expiry, as for
 * unsubscribe: an old email's link still works.
 */

const PURPOSE = 'earshot:mute:v1:';
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{20,1400})\.([A-Za-z0-9_-]{43})$/;

export const MUTE_KINDS = ['thread', 'author', 'community'] as const;

export const muteSchema = z.strictObject({
  /** The monitor's owner. */
  u: z.uuid(),
  /** The monitor. */
  m: z.uuid(),
  k: z.enum(MUTE_KINDS),
  s: z.enum(SOURCE_NAMES),
  /** The thread id, the author's name or the community. */
  v: z.string().min(1).max(300),
  /** The thread's title, for the monitor's list of muted threads. */
  t: z.string().max(300).nullable().optional(),
});
export type Mute = z.infer<typeof muteSchema>;

export type MuteTokens = {
  signMute(mute: Mute): string;
  /** The mute of a genuine token; null for anything else. */
  verifyMute(token: string): Mute | null;
};

export function createMuteTokens(key: string): MuteTokens {
  const mac = (payload: string) =>
    createHmac('sha256', key)
      .update(PURPOSE + payload)
      .digest();
  return {
    signMute(mute) {
      const payload = Buffer.from(JSON.stringify(muteSchema.parse(mute))).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    verifyMute(token) {
      const parts = TOKEN_SHAPE.exec(token);
      if (!parts?.[1] || !parts[2]) return null;
      const given = Buffer.from(parts[2], 'base64url');
      if (given.length !== 32 || given.toString('base64url') !== parts[2]) return null;
      if (!timingSafeEqual(mac(parts[1]), given)) return null;
      try {
        const parsed = muteSchema.safeParse(
          JSON.parse(Buffer.from(parts[1], 'base64url').toString()),
        );
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
  };
}

/** A name a query term can carry bare (`author:name`): what the links are offered for. */
const MUTABLE_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;

/** The term a mute adds to the monitor's query; null for a thread (or a name no term can carry). */
export function muteExclusion(mute: Pick<Mute, 'k' | 'v'>): string | null {
  if (mute.k === 'thread' || !MUTABLE_NAME.test(mute.v)) return null;
  return mute.k === 'author' ? `-author:${mute.v}` : `-subreddit:${mute.v}`;
}

/** Sites whose community a `-subreddit:` term leaves out (Reddit, and DEV's tags). */
const COMMUNITY_MUTES = new Set(['reddit', 'devto']);

/**
 * The mutes an alert email's entry offers (decision 0038), for the monitor it is listed under:
 * its thread, its lead item's author, and its community where a query term can leave it out.
 */
export function entryMutes(input: {
  userId: string;
  monitorId: string;
  match: Pick<
    Match,
    'source' | 'threadId' | 'threadTitle' | 'title' | 'kind' | 'author' | 'community'
  >;
}): { kind: Mute['k']; mute: Mute }[] {
  const { match } = input;
  const base = { u: input.userId, m: input.monitorId, s: match.source };
  const mutes: { kind: Mute['k']; mute: Mute }[] = [];
  if (match.threadId) {
    const title = match.kind === 'post' ? match.title : match.threadTitle;
    mutes.push({
      kind: 'thread',
      mute: { ...base, k: 'thread', v: match.threadId, t: title?.slice(0, 300) ?? null },
    });
  }
  if (match.author && muteExclusion({ k: 'author', v: match.author })) {
    mutes.push({ kind: 'author', mute: { ...base, k: 'author', v: match.author } });
  }
  if (
    match.community &&
    COMMUNITY_MUTES.has(match.source) &&
    muteExclusion({ k: 'community', v: match.community })
  ) {
    mutes.push({ kind: 'community', mute: { ...base, k: 'community', v: match.community } });
  }
  return mutes;
}
