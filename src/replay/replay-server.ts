import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { SourceName } from '../shared/sources.ts';
import { REPLAY_SITES } from '../sources/registry.ts';
import type { RawRecord, ReplayCorpus } from './corpus.ts';

/** Each site is one stream of records. */
export type ReplayStream = SourceName;

/** What the next matching requests get instead of (or on top of) the normal answer. */
export type ReplayFault =
  | { readonly kind: 'status'; readonly status: number; readonly retryAfter?: string }
  /** The answer, this much later (slower than a client's timeout, say). */
  | { readonly kind: 'delay'; readonly ms: number }
  /** The first half of the JSON body, then the end. */
  | { readonly kind: 'truncate' }
  /** An HTML error page with status 200, as proxies send. */
  | { readonly kind: 'html' }
  /** The connection closed without an answer. */
  | { readonly kind: 'drop' }
  /** Item answers with a field of the wrong type (Hacker News `time`, Reddit `created_utc`, Lobsters `created_at`, DEV `published_at`). */
  | { readonly kind: 'wrong-type' };

export type FaultTarget = ReplayStream | 'token';

/** The settings that point Earshot at a replay running at `url`, every site. */
export function replaySettings(url: string): Record<string, string> {
  return {
    SOURCES: 'all',
    HN_API_URL: `${url}/v0`,
    REDDIT_CLIENT_ID: 'replay-client',
    REDDIT_CLIENT_SECRET: 'replay-secret',
    REDDIT_AUTH_URL: `${url}/api/v1/access_token`,
    REDDIT_API_URL: url,
    LOBSTERS_URL: url,
    ...Object.assign(
      {},
      ...REPLAY_SITES.map(({ replay }) => replay.settings(`${url}${replay.prefix}`)),
    ),
  };
}

export type ReplayOptions = {
  readonly corpus: ReplayCorpus;
  /** Records revealed a second per stream (each site is one stream). */
  readonly rate?: number;
  /** Records revealed at once, before the clock starts. */
  readonly initial?: number;
  /** Serve only the first this many records of each stream (shorter tests). */
  readonly maxRecords?: number;
  /** After the corpus, start it again with fresh ids (an endless site, for benchmarks). */
  readonly loop?: boolean;
  readonly port?: number;
  readonly host?: string;
  /** Reddit app-only credentials the token endpoint accepts. */
  readonly redditClientId?: string;
  readonly redditClientSecret?: string;
  /** Lifetime of the tokens it issues. */
  readonly tokenSeconds?: number;
  /** Reddit requests allowed per 600-second window (X-Ratelimit-*). */
  readonly redditBudget?: number;
};

export type ReplayServer = {
  readonly url: string;
  readonly port: number;
  /** How many records of `stream` are visible now. */
  revealed(stream: ReplayStream): number;
  /** The external ids (as Earshot stores them) of the first `count` records of `stream`. */
  externalIds(stream: ReplayStream, count: number): string[];
  /** The moment (ms since the epoch) record `index` of `stream` became visible. */
  revealedAt(stream: ReplayStream, index: number): number;
  /** The record index of an external id, or -1. */
  indexOf(stream: ReplayStream, externalId: string): number;
  /** Changes the reveal rate from now on. */
  setRate(rate: number): void;
  /** Reveals `count` more records of every stream at once (a burst). */
  revealMore(count: number): void;
  /** The next `times` requests to `target` get `fault`. */
  fault(target: FaultTarget, fault: ReplayFault, times?: number): void;
  /** Makes every issued Reddit token invalid (as if revoked); new ones are issued as usual. */
  revokeTokens(): void;
  /** Requests seen, by target. */
  requests(target: FaultTarget): number;
  /** When each request to `target` came (ms since the epoch). */
  requestTimes(target: FaultTarget): readonly number[];
  /** Stops listening (connections are refused) until `resume`. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
};

const REDDIT = 'https://www.reddit.com';
const T3_BASE = Number.parseInt('5k0000', 36);
const T1_BASE = Number.parseInt('dc000000', 36);
const PAGE = 25;

/**
 * A stand-in for the three sites, serving recorded records in their APIs' exact shapes and
 * revealing them over time as a live site would: Hacker News (`/v0/maxitem.json`,
 * `/v0/item/<id>.json`, `/v0/updates.json`, `/v0/newstories.json`), Reddit (the token endpoint,
 * `/api/info`, `/r/all/new`, `/r/all/comments`) and Lobsters (`/newest.json`, `/comments.json`
 * and their pages). Ids are renumbered densely in reveal order and times set to the reveal
 * moment, so the recordings (sparse ids, old dates) behave like the live firehose.
 */
export async function startReplay(options: ReplayOptions): Promise<ReplayServer> {
  const cap = options.maxRecords ?? Number.POSITIVE_INFINITY;
  const corpus: ReplayCorpus = {
    hackernews: options.corpus.hackernews.slice(0, cap),
    reddit: options.corpus.reddit.slice(0, cap),
    lobstersStories: options.corpus.lobstersStories,
    lobstersComments: options.corpus.lobstersComments,
    sites: Object.fromEntries(
      Object.entries(options.corpus.sites).map(([name, records]) => [name, records.slice(0, cap)]),
    ),
  };
  // The sites whose replay lives in their folder, each under its own path prefix.
  const sites = REPLAY_SITES.map(({ name, replay }) => ({
    name,
    replay,
    records: corpus.sites[name] ?? [],
  }));
  const siteOf = (name: ReplayStream): (typeof sites)[number] | undefined =>
    sites.find((site) => site.name === name);
  const loop = options.loop ?? false;
  const initial = options.initial ?? 0;
  const clientId = options.redditClientId ?? 'replay-client';
  const clientSecret = options.redditClientSecret ?? 'replay-secret';
  const tokenSeconds = options.tokenSeconds ?? 3600;
  const budget = options.redditBudget ?? 100_000;
  const lobsters = [
    ...corpus.lobstersStories.map((record) => ({ kind: 'story' as const, record })),
    ...corpus.lobstersComments.map((record) => ({ kind: 'comment' as const, record })),
  ]
    .sort(
      (a, b) => Date.parse(String(a.record.created_at)) - Date.parse(String(b.record.created_at)),
    )
    .slice(0, cap);
  const sizes = {
    hackernews: corpus.hackernews.length,
    reddit: corpus.reddit.length,
    lobsters: lobsters.length,
    ...Object.fromEntries(sites.map((site) => [site.name, site.records.length])),
  } as Record<ReplayStream, number>;

  // The reveal clock: segments of constant rate, so revealedAt stays exact across setRate.
  const segments: { at: number; count: number; rate: number }[] = [
    { at: Date.now(), count: initial, rate: options.rate ?? 1 },
  ];
  const clock = (now: number): number => {
    const segment = segments.at(-1) as (typeof segments)[number];
    return segment.count + Math.floor(((now - segment.at) / 1000) * segment.rate);
  };
  const revealed = (stream: ReplayStream, now = Date.now()): number =>
    loop ? clock(now) : Math.min(sizes[stream], clock(now));
  const revealedAt = (index: number): number => {
    for (let s = segments.length - 1; s >= 0; s--) {
      const segment = segments[s] as (typeof segments)[number];
      // Revealed while this segment's rate ran.
      if (index >= segment.count)
        return segment.at + ((index - segment.count + 1) / segment.rate) * 1000;
      const before = segments[s - 1];
      // Revealed when the segment began: the first one's initial items, or a jump (revealMore).
      if (!before) return segment.at;
      const countBefore =
        before.count + Math.floor(((segment.at - before.at) / 1000) * before.rate);
      if (index >= countBefore) return segment.at;
    }
    return segments[0]?.at ?? 0;
  };

  // --- Hacker News: id = index + 1.
  const hnIndex = new Map(corpus.hackernews.map((item, i) => [Number(item.id), i]));
  const hnRemap = (original: unknown, cycle: number): number | undefined => {
    const at = hnIndex.get(Number(original));
    return at === undefined ? undefined : cycle * sizes.hackernews + at + 1;
  };
  const hnItem = (id: number, wrongType: boolean): RawRecord | null => {
    const index = id - 1;
    if (index < 0 || index >= revealed('hackernews') || sizes.hackernews === 0) return null;
    const cycle = Math.floor(index / sizes.hackernews);
    const original = corpus.hackernews[index % sizes.hackernews] as RawRecord;
    const item: RawRecord = { ...original, id, time: Math.floor(revealedAt(index) / 1000) };
    if ('parent' in original) {
      const parent = hnRemap(original.parent, cycle);
      if (parent === undefined) delete item.parent;
      else item.parent = parent;
    }
    if (Array.isArray(original.kids)) {
      item.kids = original.kids.flatMap((kid) => hnRemap(kid, cycle) ?? []);
    }
    if (wrongType) item.time = 'yesterday';
    return item;
  };

  // --- Reddit: each kind numbered in its own sequence, in reveal order.
  const ordinals: number[] = [];
  const perKind = { t1: 0, t3: 0 };
  const redditOrdinal = new Map<string, number>();
  for (const thing of corpus.reddit) {
    const kind = thing.kind as 't1' | 't3';
    const data = thing.data as RawRecord;
    ordinals.push(perKind[kind]);
    redditOrdinal.set(String(data.name), perKind[kind]);
    perKind[kind]++;
  }
  const redditId = (kind: 't1' | 't3', ordinal: number, cycle: number) =>
    ((kind === 't3' ? T3_BASE : T1_BASE) + cycle * perKind[kind] + ordinal).toString(36);
  const redditName = (original: unknown, cycle: number): string | undefined => {
    const name = String(original);
    const ordinal = redditOrdinal.get(name);
    if (ordinal === undefined) return undefined;
    const kind = name.slice(0, 2) as 't1' | 't3';
    return `${kind}_${redditId(kind, ordinal, cycle)}`;
  };
  // index of the thing with a given kind and number
  const redditByNumber = new Map<string, number>();
  const redditThing = (index: number, wrongType: boolean): RawRecord => {
    const cycle = Math.floor(index / sizes.reddit);
    const original = corpus.reddit[index % sizes.reddit] as RawRecord;
    const kind = original.kind as 't1' | 't3';
    const data = { ...(original.data as RawRecord) };
    const id = redditId(kind, ordinals[index % sizes.reddit] as number, cycle);
    const oldId = String(data.id);
    data.id = id;
    data.name = `${kind}_${id}`;
    data.created_utc = wrongType ? 'yesterday' : Math.floor(revealedAt(index) / 1000);
    data.created = data.created_utc;
    if (kind === 't3') {
      if (typeof data.permalink === 'string')
        data.permalink = data.permalink.replace(`/comments/${oldId}/`, `/comments/${id}/`);
      if (data.is_self === true) data.url = `${REDDIT}${String(data.permalink)}`;
    } else {
      const link = redditName(data.link_id, cycle);
      const parent = redditName(data.parent_id, cycle);
      if (link) data.link_id = link;
      if (parent) data.parent_id = parent;
      const linkId = String(data.link_id).replace(/^t3_/u, '');
      data.permalink = `/r/${String(data.subreddit)}/comments/${linkId}/_/${id}/`;
    }
    return { kind, data };
  };
  const redditIndexOf = (name: string): number => {
    const cached = redditByNumber.get(name);
    if (cached !== undefined) return cached;
    const kind = name.slice(0, 2) as 't1' | 't3';
    if ((kind !== 't1' && kind !== 't3') || perKind[kind] === 0) return -1;
    const number = Number.parseInt(name.slice(3), 36) - (kind === 't3' ? T3_BASE : T1_BASE);
    if (!(number >= 0)) return -1;
    const cycle = Math.floor(number / perKind[kind]);
    const ordinal = number % perKind[kind];
    // Find the corpus position with this kind and ordinal (built once).
    if (positions[kind].length === 0) {
      corpus.reddit.forEach((thing, i) => {
        if (thing.kind === kind) positions[kind].push(i);
      });
    }
    const position = positions[kind][ordinal];
    if (position === undefined) return -1;
    const index = cycle * sizes.reddit + position;
    if (redditByNumber.size < 1_000_000) redditByNumber.set(name, index);
    return index;
  };
  const positions: { t1: number[]; t3: number[] } = { t1: [], t3: [] };

  // --- Lobsters: short ids kept (a suffix per cycle when looping).
  const lobstersRecord = (
    index: number,
    wrongType: boolean,
  ): { kind: 'story' | 'comment'; record: RawRecord } => {
    const cycle = Math.floor(index / sizes.lobsters);
    const entry = lobsters[index % sizes.lobsters] as (typeof lobsters)[number];
    const suffix = cycle === 0 ? '' : String(cycle);
    const record: RawRecord = {
      ...entry.record,
      short_id: `${String(entry.record.short_id)}${suffix}`,
      created_at: wrongType ? 42 : new Date(revealedAt(index)).toISOString(),
    };
    if (suffix && typeof record.url === 'string' && entry.kind === 'comment') {
      record.url = record.url.replace(/\/s\/([a-z0-9]+)/u, `/s/$1${suffix}`);
    }
    return { kind: entry.kind, record };
  };

  // --- Faults, tokens, rate limits.
  const faults: { target: FaultTarget; fault: ReplayFault; times: number }[] = [];
  const targets: FaultTarget[] = ['hackernews', 'reddit', 'lobsters', 'token'];
  for (const site of sites) targets.push(site.name);
  const counts = Object.fromEntries(targets.map((target) => [target, 0])) as Record<
    FaultTarget,
    number
  >;
  const times = Object.fromEntries(targets.map((target) => [target, []])) as unknown as Record<
    FaultTarget,
    number[]
  >;
  let tokens = new Map<string, number>();
  let windowStart = Date.now();
  let used = 0;

  // A wrong-typed field needs an answer carrying items: it waits for one.
  const takeFault = (target: FaultTarget, carriesItems: boolean): ReplayFault | null => {
    const at = faults.findIndex(
      (entry) =>
        entry.target === target &&
        entry.times > 0 &&
        (entry.fault.kind !== 'wrong-type' || carriesItems),
    );
    if (at < 0) return null;
    const entry = faults[at] as (typeof faults)[number];
    entry.times--;
    if (entry.times <= 0) faults.splice(at, 1);
    return entry.fault;
  };

  const siteAt = (pathname: string): (typeof sites)[number] | undefined =>
    sites.find(
      (site) => pathname === site.replay.prefix || pathname.startsWith(`${site.replay.prefix}/`),
    );
  const clockOf = (name: ReplayStream) => ({
    revealed: () => revealed(name),
    revealedAt: (index: number) => revealedAt(index),
  });
  const targetOf = (pathname: string): FaultTarget =>
    siteAt(pathname)?.name ??
    (pathname.startsWith('/v0/')
      ? 'hackernews'
      : pathname === '/api/v1/access_token'
        ? 'token'
        : pathname.startsWith('/api/') || pathname.startsWith('/r/')
          ? 'reddit'
          : 'lobsters');

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://replay');
    const target = targetOf(url.pathname);
    counts[target]++;
    times[target].push(Date.now());
    const site = siteAt(url.pathname);
    const route = site ? url.pathname.slice(site.replay.prefix.length) : url.pathname;
    const carriesItems = site
      ? site.replay.carriesItems(route)
      : /\/item\/|\/api\/info|^\/(newest|comments)/u.test(url.pathname);
    const fault = takeFault(target, carriesItems);
    if (fault?.kind === 'drop') {
      request.socket.destroy();
      return;
    }
    if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
    if (fault?.kind === 'status') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
      response.writeHead(fault.status, headers).end(JSON.stringify({ error: fault.status }));
      return;
    }
    if (fault?.kind === 'html') {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<html><body>Bad gateway</body></html>');
      return;
    }
    const wrongType = fault?.kind === 'wrong-type';
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      const text = JSON.stringify(body);
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(
        fault?.kind === 'truncate' ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : text,
      );
    };
    const body = await readBody(request);

    if (site) {
      const answer = site.replay.answer(
        { path: route, query: url.searchParams, wrongType },
        site.records,
        clockOf(site.name),
      );
      return send(answer.status, answer.body, { ...answer.headers });
    }

    if (target === 'hackernews') {
      const path = url.pathname.slice('/v0'.length);
      const count = revealed('hackernews');
      if (path === '/maxitem.json') return send(200, count);
      const item = /^\/item\/(\d+)\.json$/u.exec(path);
      if (item) return send(200, hnItem(Number(item[1]), wrongType));
      if (path === '/updates.json') {
        const ids = Array.from({ length: Math.min(20, count) }, (_, i) => count - i);
        return send(200, { items: ids, profiles: [] });
      }
      if (path === '/newstories.json') {
        const stories: number[] = [];
        for (let id = count; id >= 1 && stories.length < 500; id--) {
          if (hnItem(id, false)?.type === 'story') stories.push(id);
        }
        return send(200, stories);
      }
      return send(404, { error: 'Permission denied' });
    }

    if (target === 'token') {
      const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
      if (request.method !== 'POST' || request.headers.authorization !== expected) {
        return send(401, { message: 'Unauthorized', error: 401 });
      }
      if (!/grant_type=client_credentials/u.test(body))
        return send(200, { error: 'unsupported_grant_type' });
      const token = `replay-${randomBytes(12).toString('hex')}`;
      tokens.set(token, Date.now() + tokenSeconds * 1000);
      return send(200, {
        access_token: token,
        token_type: 'bearer',
        expires_in: tokenSeconds,
        scope: '*',
      });
    }

    if (target === 'reddit') {
      const bearer = /^bearer (.+)$/iu.exec(request.headers.authorization ?? '')?.[1];
      const expires = bearer === undefined ? undefined : tokens.get(bearer);
      if (expires === undefined || expires < Date.now())
        return send(401, { message: 'Unauthorized', error: 401 });
      if (Date.now() - windowStart >= 600_000) {
        windowStart = Date.now();
        used = 0;
      }
      used++;
      const rate = {
        'x-ratelimit-used': String(used),
        'x-ratelimit-remaining': String(Math.max(0, budget - used)),
        'x-ratelimit-reset': String(Math.ceil((600_000 - (Date.now() - windowStart)) / 1000)),
      };
      if (used > budget) return send(429, { message: 'Too Many Requests', error: 429 }, rate);
      const count = revealed('reddit');
      const path = url.pathname.replace(/\.json$/u, '').replace(/\/+$/u, '');
      if (path === '/api/info') {
        const names = (url.searchParams.get('id') ?? '').split(',').filter(Boolean).slice(0, 100);
        const children = names.flatMap((name) => {
          const index = redditIndexOf(name);
          return index >= 0 && index < count ? [redditThing(index, false)] : [];
        });
        // One bad thing in the answer, not all of them.
        if (wrongType && children.length > 0) {
          const first = children[0] as RawRecord;
          children[0] = {
            ...first,
            data: { ...(first.data as RawRecord), created_utc: 'yesterday' },
          };
        }
        return send(200, listing(children), rate);
      }
      if (path === '/r/all/new' || path === '/r/all/comments') {
        const kind = path.endsWith('new') ? 't3' : 't1';
        const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 25) || 25);
        const children: RawRecord[] = [];
        for (let index = count - 1; index >= 0 && children.length < limit; index--) {
          const thing = redditThing(index, false);
          if (thing.kind === kind) children.push(thing);
          if (count - index > 5000) break;
        }
        return send(200, listing(children), rate);
      }
      return send(404, { message: 'Not Found', error: 404 }, rate);
    }

    const page = /^\/(newest|comments)(?:\/page\/(\d+))?\.json$/u.exec(url.pathname);
    if (!page) return send(404, { error: 'not found' });
    const want = page[1] === 'newest' ? 'story' : 'comment';
    const skip = (Number(page[2] ?? 1) - 1) * PAGE;
    const records: RawRecord[] = [];
    let seen = 0;
    for (let index = revealed('lobsters') - 1; index >= 0 && records.length < PAGE; index--) {
      const entry = lobstersRecord(index, false);
      if (entry.kind !== want) continue;
      if (seen++ < skip) continue;
      records.push(
        records.length === 0 && wrongType ? lobstersRecord(index, true).record : entry.record,
      );
    }
    return send(200, records);
  }

  const sockets = new Set<Socket>();
  let server: Server = createServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((request, response) => {
        handle(request, response).catch(() => {
          if (!response.headersSent) response.writeHead(500).end();
        });
      });
      server.on('connection', (socket) => {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
      });
      server.once('error', reject);
      server.listen(port, options.host ?? '127.0.0.1', () =>
        resolve((server.address() as AddressInfo).port),
      );
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });

  const port = await listen(options.port ?? 0);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    revealed: (stream) => revealed(stream),
    externalIds(stream, count) {
      return Array.from({ length: count }, (_, index) => {
        if (stream === 'hackernews') return String(index + 1);
        if (stream === 'reddit') return String((redditThing(index, false).data as RawRecord).name);
        const site = siteOf(stream);
        if (site) return site.replay.externalId(site.records, index);
        return String(lobstersRecord(index, false).record.short_id);
      });
    },
    revealedAt: (_stream, index) => revealedAt(index),
    indexOf(stream, externalId) {
      if (stream === 'hackernews') return Number(externalId) - 1;
      if (stream === 'reddit') return redditIndexOf(externalId);
      const site = siteOf(stream);
      if (site) return site.replay.indexOf(site.records, externalId);
      for (let index = 0; index < revealed('lobsters'); index++) {
        if (lobstersRecord(index, false).record.short_id === externalId) return index;
      }
      return -1;
    },
    setRate(rate) {
      const now = Date.now();
      segments.push({ at: now, count: clock(now), rate });
    },
    revealMore(count) {
      const now = Date.now();
      const rate = segments.at(-1)?.rate ?? 0;
      segments.push({ at: now, count: clock(now) + count, rate });
    },
    fault(target, fault, times = 1) {
      faults.push({ target, fault, times });
    },
    revokeTokens() {
      tokens = new Map();
    },
    requests: (target) => counts[target],
    requestTimes: (target) => times[target],
    suspend: stopListening,
    async resume() {
      await listen(port);
    },
    close: stopListening,
  };
}

function listing(children: RawRecord[]): RawRecord {
  return {
    kind: 'Listing',
    data: {
      after: null,
      dist: children.length,
      modhash: '',
      geo_filter: '',
      children,
      before: null,
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      if (text.length < 65_536) text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', () => resolve(text));
  });
}
