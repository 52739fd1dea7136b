/**
 * One instance's streaming API for its local public timeline
 * (`GET /api/v1/streaming/public/local`, server-sent events, as recorded in
 * tests/fixtures/recorded/mastodon-streaming-sse-2022.txt): `update` events carry a status as
 * JSON; deletes, edits and the `:thump` heartbeats are not statuses. The statuses wait in a
 * bounded queue until the connector takes them.
 *
 * The stream is a shortcut, never the record: it is only `synced` once the connector has polled
 * up to now after it opened, and anything wrong with it (refused, dropped, silent for 90 s, a
 * message that is not JSON, the queue full) closes it and makes it unsynced, so the connector
 * polls from its cursor again. A refusal (an instance that allows no unauthenticated streaming,
 * or has no streaming server at that address) is asked again after ten minutes, a drop after a
 * few seconds.
 */
export type PublicStream = {
  /** Opens it unless open, opening, or resting after a refusal. */
  open(): void;
  /** Whether the connector may take its statuses instead of polling. */
  synced(): boolean;
  /** Whether it was live from `at` (ms) on without a break. */
  liveSince(at: number): boolean;
  markSynced(): void;
  /** Back to polling (the statuses taken were not stored); the stream stays open. */
  unsync(): void;
  /** The statuses pushed since the last take, oldest first. */
  take(): unknown[];
  /** Why it is not streaming, in a few words; null when it is. */
  why(): string | null;
  close(): void;
};

export type PublicStreamOptions = {
  readonly url: string;
  readonly token?: string | undefined;
  readonly userAgent: string;
  readonly now: () => number;
  readonly queueLimit?: number;
  /** Silence (no event, no heartbeat) after which the stream is taken for dead. */
  readonly stallMs?: number;
  readonly refusedRetryMs?: number;
  readonly droppedRetryMs?: number;
  readonly connectTimeoutMs?: number;
};

export function createPublicStream(options: PublicStreamOptions): PublicStream {
  const queueLimit = options.queueLimit ?? 5000;
  const stallMs = options.stallMs ?? 90_000;
  const refusedRetryMs = options.refusedRetryMs ?? 10 * 60_000;
  const droppedRetryMs = options.droppedRetryMs ?? 5000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const { now } = options;

  let state: 'closed' | 'opening' | 'live' = 'closed';
  let abort: AbortController | null = null;
  let retryAt = 0;
  let liveFrom = Number.POSITIVE_INFINITY;
  let isSynced = false;
  let lastDataAt = 0;
  let reason: string | null = 'not opened yet';
  let queue: unknown[] = [];

  const stop = (why: string, retryMs: number) => {
    abort?.abort();
    abort = null;
    state = 'closed';
    isSynced = false;
    liveFrom = Number.POSITIVE_INFINITY;
    queue = [];
    reason = why;
    retryAt = now() + retryMs;
  };

  async function connect(): Promise<void> {
    const controller = new AbortController();
    abort = controller;
    state = 'opening';
    const timer = setTimeout(() => controller.abort(), connectTimeoutMs);
    let response: Response;
    try {
      response = await fetch(options.url, {
        headers: {
          accept: 'text/event-stream',
          'user-agent': options.userAgent,
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        signal: controller.signal,
      });
    } catch {
      clearTimeout(timer);
      if (abort === controller) stop('streaming unreachable', refusedRetryMs);
      return;
    }
    clearTimeout(timer);
    if (abort !== controller) return;
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('text/event-stream') || response.body === null) {
      await response.body?.cancel().catch(() => {});
      stop(`streaming answered ${response.status}`, refusedRetryMs);
      return;
    }
    state = 'live';
    liveFrom = now();
    lastDataAt = now();
    reason = null;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        if (abort !== controller) return;
        lastDataAt = now();
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        const blocks = buffer.split(/\r?\n\r?\n/u);
        buffer = blocks.pop() ?? '';
        for (const block of blocks) {
          const lines = block.split(/\r?\n/u);
          if (!lines.includes('event: update')) continue;
          const data = lines
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice('data:'.length).replace(/^ /u, ''))
            .join('\n');
          let status: unknown;
          try {
            status = JSON.parse(data);
          } catch {
            stop('a streamed status was not JSON', droppedRetryMs);
            return;
          }
          if (queue.length >= queueLimit) {
            stop('the stream outran the store', droppedRetryMs);
            return;
          }
          queue.push(status);
        }
      }
      if (abort === controller) stop('the stream ended', droppedRetryMs);
    } catch {
      if (abort === controller) stop('the stream dropped', droppedRetryMs);
    }
  }

  return {
    open() {
      if (state === 'live' && now() - lastDataAt > stallMs)
        stop('the stream went silent', droppedRetryMs);
      if (state !== 'closed' || now() < retryAt) return;
      void connect();
    },
    synced: () => state === 'live' && isSynced,
    liveSince: (at) => state === 'live' && liveFrom <= at,
    markSynced() {
      if (state === 'live') isSynced = true;
    },
    unsync() {
      isSynced = false;
      queue = [];
    },
    take() {
      const taken = queue;
      queue = [];
      return taken;
    },
    why: () => reason,
    close() {
      abort?.abort();
      abort = null;
      state = 'closed';
      isSynced = false;
      queue = [];
    },
  };
}
