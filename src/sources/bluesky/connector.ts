import WebSocket from 'ws';
import { z } from 'zod';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import { jetstreamTimeUs, normaliseJetstreamEvent, POST_COLLECTION } from './normalise.ts';

/** Where the reading is: the newest Jetstream `time_us` (µs since the epoch) read and stored. */
export type BlueskyCursor = { readonly timeUs: number };

const cursorSchema = z.object({ timeUs: z.number().int().nonnegative() });

export type BlueskySourceOptions = {
  /** Jetstream's subscribe endpoint, `ws://` or `wss://`. */
  readonly url: string;
  readonly pollIntervalMs: number;
  /** Events held between two reads at most: past it the socket stops reading (back-pressure). */
  readonly queueLimit?: number;
  /** Events handed over by one `fetchNew` at most. */
  readonly batchSize?: number;
  /** How far before the cursor a (re)connection resumes: events arrive slightly out of order. */
  readonly overlapMs?: number;
  /** How far back a first start (no cursor) reads. */
  readonly backfillMs?: number;
  readonly handshakeTimeoutMs?: number;
};

/** What a connector shows of its queue (docs/product.md, "Sources": Bluesky; `SourceQueue`). */
export type BlueskyStats = {
  /** Events waiting now. */
  readonly depth: number;
  /** The most that ever waited. */
  readonly maxDepth: number;
  /** Now minus the newest `time_us` handed over, ms; null before the first. */
  readonly lagMs: number | null;
};

type Queued = { readonly timeUs: number | null; readonly raw: unknown };

/**
 * Bluesky's public firehose through Jetstream: one WebSocket subscribed to `app.bsky.feed.post`,
 * whose messages wait in a bounded queue until the ingestion loop reads them (`fetchNew`). When
 * the queue is full the socket is paused, so TCP flow control slows Jetstream down rather than
 * memory growing; a read hands over at most `batchSize` events and says `more` while some wait.
 *
 * The cursor is the newest `time_us` handed over. The connection is made from the cursor the loop
 * passes, less `overlapMs` (events are not strictly in `time_us` order; the store drops what it
 * already has), and made again from the stored cursor whenever the loop passes another cursor
 * than the one last returned (a batch that was not stored) or after a fault: a dropped
 * connection or a message that is not JSON is thrown once (health "failing"), and the next
 * read reconnects from the cursor, so nothing handed over unstored is lost.
 */
export function createBlueskySource(
  options: BlueskySourceOptions,
): Source<BlueskyCursor> & { stats(): BlueskyStats } {
  const queueLimit = options.queueLimit ?? 10_000;
  const batchSize = options.batchSize ?? 1000;
  const overlapUs = (options.overlapMs ?? 5000) * 1000;
  const backfillMs = options.backfillMs ?? 120_000;

  let socket: WebSocket | null = null;
  let opened: Promise<void> | null = null;
  let queue: Queued[] = [];
  let paused = false;
  let fault: SourceError | null = null;
  /** The cursor last handed over (`undefined`: none yet, or the stream was reset). */
  let handedOver: number | null | undefined;
  let maxDepth = 0;
  let newestUs: number | null = null;
  const watched = new WeakSet<AbortSignal>();

  function reset(): void {
    const old = socket;
    socket = null;
    opened = null;
    queue = [];
    paused = false;
    handedOver = undefined;
    if (old) {
      old.removeAllListeners();
      old.on('error', () => {});
      old.terminate();
    }
  }

  function connect(fromUs: number): void {
    const url = new URL(options.url);
    url.searchParams.set('wantedCollections', POST_COLLECTION);
    url.searchParams.set('cursor', String(Math.max(0, Math.floor(fromUs))));
    const ws = new WebSocket(url, {
      handshakeTimeout: options.handshakeTimeoutMs ?? 10_000,
      perMessageDeflate: false,
    });
    socket = ws;
    const failWith = (error: SourceError) => {
      if (socket !== ws) return;
      fault ??= error;
      ws.terminate();
    };
    opened = new Promise<void>((resolve) => {
      ws.once('open', () => resolve());
      ws.once('close', () => resolve());
    });
    ws.on('message', (data, isBinary) => {
      if (socket !== ws) return;
      let raw: unknown;
      try {
        raw = JSON.parse(isBinary ? Buffer.from(data as Buffer).toString('utf8') : String(data));
      } catch {
        failWith(new SourceError('malformed', `${options.url} sent a message that is not JSON`));
        return;
      }
      queue.push({ timeUs: jetstreamTimeUs(raw), raw });
      maxDepth = Math.max(maxDepth, queue.length);
      if (queue.length >= queueLimit && !paused) {
        paused = true;
        ws.pause();
      }
      // The rest of the chunk read before the pause still comes out (64 KiB, about a hundred
      // messages): well past that, drop the connection and read again from the cursor once the
      // queue is drained.
      if (queue.length >= queueLimit + Math.max(queueLimit, 1000)) {
        ws.removeAllListeners('close');
        ws.terminate();
        socket = null;
        opened = null;
      }
    });
    ws.on('error', (error) => {
      failWith(new SourceError('network', `cannot reach ${options.url}: ${error.message}`));
    });
    ws.on('close', (code) => {
      failWith(new SourceError('network', `${options.url} closed the connection (${code})`));
    });
  }

  const stats = (): BlueskyStats => ({
    depth: queue.length,
    maxDepth,
    lagMs: newestUs === null ? null : Date.now() - newestUs / 1000,
  });
  return {
    name: 'bluesky',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    stats,
    // The queue in the health line: its depth, the most that waited, how far behind.
    status: () => ({ note: null, queue: stats() }),
    async fetchNew(cursor, signal): Promise<SourceBatch<BlueskyCursor>> {
      if (!watched.has(signal)) {
        watched.add(signal);
        signal.addEventListener('abort', reset, { once: true });
      }
      if (fault) {
        const error = fault;
        fault = null;
        reset();
        throw error;
      }
      const from = cursor?.timeUs ?? null;
      if (from !== handedOver) reset();
      if (socket === null && queue.length === 0) {
        connect(from === null ? (Date.now() - backfillMs) * 1000 : from - overlapUs);
      }
      await opened;
      if (fault) {
        const error = fault;
        fault = null;
        reset();
        throw error;
      }
      const taken = queue.splice(0, batchSize);
      if (paused && queue.length < queueLimit / 2) {
        paused = false;
        socket?.resume();
      }
      const items: NormalisedItem[] = [];
      const seen = new Set<string>();
      const skipped: Record<string, number> = {};
      let newest = from ?? (Date.now() - backfillMs) * 1000;
      for (const { timeUs, raw } of taken) {
        if (timeUs !== null && timeUs > newest) newest = timeUs;
        const result = normaliseJetstreamEvent(raw);
        if (result.status !== 'item') countSkip(skipped, result.reason);
        else if (!seen.has(result.item.externalId)) {
          seen.add(result.item.externalId);
          items.push(result.item);
        }
      }
      if (taken.length > 0) newestUs = newest;
      handedOver = newest;
      return { items, skipped, cursor: { timeUs: newest }, more: queue.length > 0 };
    },
  };
}
