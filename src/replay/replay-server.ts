import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { SourceName } from '../shared/sources.ts';
import { REPLAY_SITES } from '../sources/registry.ts';
import type { RawRecord, ReplayAnswer, ReplayClock } from '../sources/replay-site.ts';
import type { ReplayCorpus } from './corpus.ts';
import { createHackerNewsReplay } from './hacker-news-replay.ts';
import { createLobstersReplay } from './lobsters-replay.ts';
import { createRedditReplay } from './reddit-replay.ts';
import { createReplayFaults, type FaultTarget, type ReplayFault } from './replay-faults.ts';
import { createRevealClock } from './reveal-clock.ts';

export type { FaultTarget, ReplayFault } from './replay-faults.ts';

/** Each site is one stream of records. */
export type ReplayStream = SourceName;

/** The sites a replay serves: every source but feeds, which are read from any URL. */
export const REPLAY_STREAMS: readonly ReplayStream[] = [
  'hackernews',
  'reddit',
  'lobsters',
  ...REPLAY_SITES.map((site) => site.name),
];

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
  /** WebSocket connections the replay still holds open (one a client has cut counts until the close reaches it). */
  openSockets(): number;
  /** When each request to `target` came (ms since the epoch). */
  requestTimes(target: FaultTarget): readonly number[];
  /** Stops listening (connections are refused) until `resume`. */
  suspend(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
};

/**
 * A stand-in for the three sites, serving recorded records in their APIs' exact shapes and
 * revealing them over time as a live site would: Hacker News (`hacker-news-replay.ts`), Reddit
 * with its token endpoint and rate limit (`reddit-replay.ts`) and Lobsters
 * (`lobsters-replay.ts`). Ids are renumbered densely in reveal order and times set to the reveal
 * moment (`reveal-clock.ts`), so the recordings (sparse ids, old dates) behave like the live
 * firehose. Faults queued by tests (`replay-faults.ts`) replace or spoil the next answers.
 */
export async function startReplay(options: ReplayOptions): Promise<ReplayServer> {
  const cap = options.maxRecords ?? Number.POSITIVE_INFINITY;
  const loop = options.loop ?? false;
  const clock = createRevealClock(options.initial ?? 0, options.rate ?? 1);
  const faults = createReplayFaults();
  const hackerNews = options.corpus.hackernews.slice(0, cap);
  const reddit = options.corpus.reddit.slice(0, cap);
  const { lobstersStories, lobstersComments } = options.corpus;
  // The sites whose replay lives in their folder, each under its own path prefix.
  const sites: ReplaySiteRecords[] = REPLAY_SITES.map(({ name, replay }) => ({
    name,
    replay,
    records: (options.corpus.sites[name] ?? []).slice(0, cap),
  }));
  const siteOf = (name: ReplayStream) => sites.find((site) => site.name === name);
  const siteAt = (pathname: string) =>
    sites.find(
      (site) => pathname === site.replay.prefix || pathname.startsWith(`${site.replay.prefix}/`),
    );
  const sizes = {
    hackernews: hackerNews.length,
    reddit: reddit.length,
    lobsters: Math.min(cap, lobstersStories.length + lobstersComments.length),
    ...Object.fromEntries(sites.map((site) => [site.name, site.records.length])),
  } as Record<ReplayStream, number>;
  // Every stream reveals on the same clock; without `loop` it stops at its last record.
  const revealed = (stream: ReplayStream) =>
    loop ? clock.count() : Math.min(sizes[stream], clock.count());
  const revealOf = (stream: ReplayStream): ReplayClock => ({
    revealed: () => revealed(stream),
    revealedAt: clock.revealedAt,
  });
  const streams = {
    hackernews: createHackerNewsReplay(hackerNews, revealOf('hackernews')),
    reddit: createRedditReplay(reddit, revealOf('reddit'), {
      clientId: options.redditClientId ?? 'replay-client',
      clientSecret: options.redditClientSecret ?? 'replay-secret',
      tokenSeconds: options.tokenSeconds ?? 3600,
      budget: options.redditBudget ?? 100_000,
    }),
    lobsters: createLobstersReplay(lobstersStories, lobstersComments, cap, revealOf('lobsters')),
  };

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://replay');
    const site = siteAt(url.pathname);
    const target: FaultTarget = site?.name ?? targetOf(url.pathname);
    const route = site ? url.pathname.slice(site.replay.prefix.length) : url.pathname;
    const carriesItems = site
      ? site.replay.carriesItems(route)
      : /\/item\/|\/api\/info|^\/(newest|comments)/u.test(url.pathname);
    const eventStream = site?.replay.eventStream;
    const streamFrom =
      site && eventStream
        ? eventStream.start(
            { path: route, query: url.searchParams },
            site.records,
            revealOf(site.name),
          )
        : null;
    if (site && eventStream && streamFrom !== null) {
      sendEvents(context, response, site.name, streamFrom, (index) =>
        eventStream.event(site.records, index, revealOf(site.name)),
      );
      return;
    }
    const fault = faults.take(target, carriesItems);
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
    const body = await readBody(request);
    const answer: ReplayAnswer = site
      ? site.replay.answer(
          { path: route, query: url.searchParams, wrongType, headers: request.headers },
          site.records,
          revealOf(site.name),
        )
      : target === 'hackernews'
        ? streams.hackernews.answer(url.pathname.slice('/v0'.length), wrongType)
        : target === 'token'
          ? streams.reddit.token(request.method, request.headers.authorization, body)
          : target === 'reddit'
            ? streams.reddit.answer(url, request.headers.authorization, wrongType)
            : streams.lobsters.answer(url.pathname, wrongType);
    if (answer.status === 304) {
      response.writeHead(304, answer.headers).end();
      return;
    }
    const text = JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      ...answer.headers,
    });
    response.end(
      fault?.kind === 'truncate' ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : text,
    );
  }

  const context: ReplayContext = { faults, revealed, siteAt, revealOf };
  const websockets = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const upgrade = (request: IncomingMessage, socket: Socket, head: Buffer) =>
    upgradeToWebSocket(context, websockets, request, socket, head);

  const sockets = new Set<Socket>();
  let server: Server = createServer();
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((request, response) => {
        handle(request, response).catch(() => {
          if (!response.headersSent) response.writeHead(500).end();
        });
      });
      server.on('upgrade', upgrade);
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
    revealed,
    externalIds: (stream, count) =>
      Array.from({ length: count }, (_, index) => {
        const site = siteOf(stream);
        if (site) return site.replay.externalId(site.records, index);
        return streams[stream as keyof typeof streams].externalId(index);
      }),
    revealedAt: (_stream, index) => clock.revealedAt(index),
    indexOf(stream, externalId) {
      const site = siteOf(stream);
      if (site) return site.replay.indexOf(site.records, externalId);
      return streams[stream as keyof typeof streams].indexOf(externalId);
    },
    setRate: clock.setRate,
    revealMore: clock.revealMore,
    fault: faults.add,
    revokeTokens: streams.reddit.revokeTokens,
    requests: faults.requests,
    openSockets: () => websockets.clients.size,
    requestTimes: faults.requestTimes,
    suspend: stopListening,
    async resume() {
      await listen(port);
    },
    close: stopListening,
  };
}

/** A site whose replay lives in its folder, with the records it replays. */
type ReplaySiteRecords = (typeof REPLAY_SITES)[number] & { records: readonly RawRecord[] };

/** What the replay's streaming answers read of the replay: its faults, clock and sites. */
type ReplayContext = {
  faults: ReturnType<typeof createReplayFaults>;
  revealed: (stream: ReplayStream) => number;
  siteAt: (pathname: string) => ReplaySiteRecords | undefined;
  revealOf: (stream: ReplayStream) => ReplayClock;
};

// A site's server-sent events (Mastodon's streaming API): the records revealed from where the
// stream starts, as they are revealed, with a heartbeat comment every 10 s. It takes no fault
// but a drop queued for the site (the polls' faults stay theirs), which cuts it.
function sendEvents(
  { faults, revealed }: ReplayContext,
  response: ServerResponse,
  name: ReplayStream,
  from: number,
  event: (index: number) => string,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  response.write(':)\n\n');
  let next = from;
  let beat = Date.now();
  const timer = setInterval(() => {
    if (faults.pending(name, ['drop'])) {
      faults.take(name, false);
      clearInterval(timer);
      response.socket?.destroy();
      return;
    }
    const revealedNow = revealed(name);
    while (next < revealedNow && response.writableLength < 1_048_576) {
      response.write(event(next));
      next++;
    }
    if (Date.now() - beat > 10_000) {
      beat = Date.now();
      response.write(':thump\n\n');
    }
  }, 20);
  response.on('close', () => clearInterval(timer));
}

// A site read over a WebSocket (Jetstream): each connection is sent the records revealed
// from where it starts, as they are revealed. A queued fault is taken by the upgrade (a status
// refuses it, a drop cuts it) or by the next message (a drop cuts the connection, a non-JSON
// answer becomes a frame that is not JSON).
function upgradeToWebSocket(
  { faults, siteAt, revealOf }: ReplayContext,
  websockets: WebSocketServer,
  request: IncomingMessage,
  socket: Socket,
  head: Buffer,
): void {
  const url = new URL(request.url ?? '/', 'http://replay');
  const site = siteAt(url.pathname);
  const stream = site?.replay.websocket;
  const route = site ? url.pathname.slice(site.replay.prefix.length) : '';
  const clockOf = site ? revealOf(site.name) : null;
  const start =
    site && stream && clockOf
      ? stream.start({ path: route, query: url.searchParams }, site.records, clockOf)
      : null;
  if (!site || !stream || !clockOf || start === null) {
    socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
    return;
  }
  const fault = faults.take(site.name, false);
  if (fault?.kind === 'drop') {
    socket.destroy();
    return;
  }
  if (fault?.kind === 'status') {
    const retry = fault.retryAfter === undefined ? '' : `retry-after: ${fault.retryAfter}\r\n`;
    socket.end(`HTTP/1.1 ${fault.status} Fault\r\n${retry}connection: close\r\n\r\n`);
    return;
  }
  websockets.handleUpgrade(request, socket, head, (ws) => {
    let next = start;
    if (fault?.kind === 'html' || fault?.kind === 'truncate') ws.send('<html>Bad gateway</html>');
    const timer = setInterval(() => {
      const revealedNow = clockOf.revealed();
      // Sent while the client reads: a paused client lets the socket's buffer fill, not ours.
      while (next < revealedNow && ws.bufferedAmount < 1_048_576) {
        if (faults.pending(site.name, ['drop', 'html', 'truncate'])) {
          const now = faults.take(site.name, true);
          if (now?.kind === 'drop') {
            ws.terminate();
            return;
          }
          if (now?.kind === 'html' || now?.kind === 'truncate') {
            ws.send('<html>Bad gateway</html>');
            continue;
          }
        }
        ws.send(stream.message(site.records, next, clockOf));
        next++;
      }
    }, 20);
    ws.on('close', () => clearInterval(timer));
    ws.on('error', () => clearInterval(timer));
  });
}

/** The target of a path of the three sites the replay serves itself. */
function targetOf(pathname: string): FaultTarget {
  if (pathname.startsWith('/v0/')) return 'hackernews';
  if (pathname === '/api/v1/access_token') return 'token';
  if (pathname.startsWith('/api/') || pathname.startsWith('/r/')) return 'reddit';
  return 'lobsters';
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
