import { randomBytes } from 'node:crypto';
import type { ReplayAnswer, ReplayClock } from '../sources/replay-site.ts';
import type { RawRecord } from './corpus.ts';
import { answer, listing } from './replay-answer.ts';

const REDDIT = 'https://www.reddit.com';
const T3_BASE = Number.parseInt('5k0000', 36);
const T1_BASE = Number.parseInt('dc000000', 36);

type Kind = 't1' | 't3';

export type RedditReplayOptions = {
  /** App-only credentials the token endpoint accepts. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Lifetime of the tokens it issues. */
  readonly tokenSeconds: number;
  /** Requests allowed per 600-second window (X-Ratelimit-*). */
  readonly budget: number;
};

/**
 * Reddit's app-only OAuth (`/api/v1/access_token`) and the API behind it (`/api/info`,
 * `/r/all/new`, `/r/all/comments`) over recorded things. Each kind is numbered in its own
 * sequence in reveal order, as Reddit's base-36 ids are; links and parents renumbered to match.
 */
export function createRedditReplay(
  records: readonly RawRecord[],
  reveal: ReplayClock,
  options: RedditReplayOptions,
) {
  const size = records.length;
  const ordinals: number[] = [];
  const perKind = { t1: 0, t3: 0 };
  const ordinalOfName = new Map<string, number>();
  for (const thing of records) {
    const kind = thing.kind as Kind;
    const data = thing.data as RawRecord;
    ordinals.push(perKind[kind]);
    ordinalOfName.set(String(data.name), perKind[kind]);
    perKind[kind]++;
  }
  const idOf = (kind: Kind, ordinal: number, cycle: number) =>
    ((kind === 't3' ? T3_BASE : T1_BASE) + cycle * perKind[kind] + ordinal).toString(36);
  const renamed = (original: unknown, cycle: number): string | undefined => {
    const name = String(original);
    const ordinal = ordinalOfName.get(name);
    if (ordinal === undefined) return undefined;
    const kind = name.slice(0, 2) as Kind;
    return `${kind}_${idOf(kind, ordinal, cycle)}`;
  };

  function thing(index: number, wrongType: boolean): RawRecord {
    const cycle = Math.floor(index / size);
    const original = records[index % size] as RawRecord;
    const kind = original.kind as Kind;
    const data = { ...(original.data as RawRecord) };
    const id = idOf(kind, ordinals[index % size] as number, cycle);
    const oldId = String(data.id);
    data.id = id;
    data.name = `${kind}_${id}`;
    data.created_utc = wrongType ? 'yesterday' : Math.floor(reveal.revealedAt(index) / 1000);
    data.created = data.created_utc;
    if (kind === 't3') {
      if (typeof data.permalink === 'string')
        data.permalink = data.permalink.replace(`/comments/${oldId}/`, `/comments/${id}/`);
      if (data.is_self === true) data.url = `${REDDIT}${String(data.permalink)}`;
    } else {
      const link = renamed(data.link_id, cycle);
      const parent = renamed(data.parent_id, cycle);
      if (link) data.link_id = link;
      if (parent) data.parent_id = parent;
      const linkId = String(data.link_id).replace(/^t3_/u, '');
      data.permalink = `/r/${String(data.subreddit)}/comments/${linkId}/_/${id}/`;
    }
    return { kind, data };
  }

  // Record positions of each kind, and names already looked up, both built on demand.
  const positions: Record<Kind, number[]> = { t1: [], t3: [] };
  const indexOfName = new Map<string, number>();
  function indexOf(name: string): number {
    const cached = indexOfName.get(name);
    if (cached !== undefined) return cached;
    const kind = name.slice(0, 2) as Kind;
    if ((kind !== 't1' && kind !== 't3') || perKind[kind] === 0) return -1;
    const number = Number.parseInt(name.slice(3), 36) - (kind === 't3' ? T3_BASE : T1_BASE);
    if (!(number >= 0)) return -1;
    const cycle = Math.floor(number / perKind[kind]);
    const ordinal = number % perKind[kind];
    if (positions[kind].length === 0) {
      records.forEach((record, i) => {
        if (record.kind === kind) positions[kind].push(i);
      });
    }
    const position = positions[kind][ordinal];
    if (position === undefined) return -1;
    const index = cycle * size + position;
    if (indexOfName.size < 1_000_000) indexOfName.set(name, index);
    return index;
  }

  let tokens = new Map<string, number>();
  let windowStart = Date.now();
  let used = 0;

  /** X-Ratelimit-* of one more request in the current window, and whether it is over. */
  function countRequest(): { headers: Record<string, string>; over: boolean } {
    if (Date.now() - windowStart >= 600_000) {
      windowStart = Date.now();
      used = 0;
    }
    used++;
    return {
      headers: {
        'x-ratelimit-used': String(used),
        'x-ratelimit-remaining': String(Math.max(0, options.budget - used)),
        'x-ratelimit-reset': String(Math.ceil((600_000 - (Date.now() - windowStart)) / 1000)),
      },
      over: used > options.budget,
    };
  }

  function api(url: URL, wrongType: boolean, rate: Record<string, string>): ReplayAnswer {
    const count = reveal.revealed();
    const path = url.pathname.replace(/\.json$/u, '').replace(/\/+$/u, '');
    if (path === '/api/info') {
      const names = (url.searchParams.get('id') ?? '').split(',').filter(Boolean).slice(0, 100);
      const children = names.flatMap((name) => {
        const index = indexOf(name);
        return index >= 0 && index < count ? [thing(index, false)] : [];
      });
      // One bad thing in the answer, not all of them.
      if (wrongType && children.length > 0) {
        const first = children[0] as RawRecord;
        children[0] = {
          ...first,
          data: { ...(first.data as RawRecord), created_utc: 'yesterday' },
        };
      }
      return answer(200, listing(children), rate);
    }
    if (path === '/r/all/new' || path === '/r/all/comments') {
      const kind = path.endsWith('new') ? 't3' : 't1';
      const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25) || 25);
      const children: RawRecord[] = [];
      for (let index = count - 1; index >= 0 && children.length < limit; index--) {
        const found = thing(index, false);
        if (found.kind === kind) children.push(found);
        if (count - index > 5000) break;
      }
      return answer(200, listing(children), rate);
    }
    return answer(404, { message: 'Not Found', error: 404 }, rate);
  }

  return {
    externalId: (index: number) => String((thing(index, false).data as RawRecord).name),
    indexOf,
    /** Makes every issued token invalid (as if revoked); new ones are issued as usual. */
    revokeTokens() {
      tokens = new Map();
    },
    /** The token endpoint: a bearer token for the right Basic credentials. */
    token(method: string | undefined, authorization: string | undefined, body: string) {
      const expected = `Basic ${Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64')}`;
      if (method !== 'POST' || authorization !== expected) {
        return answer(401, { message: 'Unauthorized', error: 401 });
      }
      if (!/grant_type=client_credentials/u.test(body))
        return answer(200, { error: 'unsupported_grant_type' });
      const issued = `replay-${randomBytes(12).toString('hex')}`;
      tokens.set(issued, Date.now() + options.tokenSeconds * 1000);
      return answer(200, {
        access_token: issued,
        token_type: 'bearer',
        expires_in: options.tokenSeconds,
        scope: '*',
      });
    },
    /** The API: a live bearer token, then the rate limit, then the answer. */
    answer(url: URL, authorization: string | undefined, wrongType: boolean): ReplayAnswer {
      const bearer = /^bearer (.+)$/iu.exec(authorization ?? '')?.[1];
      const expires = bearer === undefined ? undefined : tokens.get(bearer);
      if (expires === undefined || expires < Date.now())
        return answer(401, { message: 'Unauthorized', error: 401 });
      const rate = countRequest();
      if (rate.over) return answer(429, { message: 'Too Many Requests', error: 429 }, rate.headers);
      return api(url, wrongType, rate.headers);
    },
  };
}
