import { setTimeout as sleep } from 'node:timers/promises';
import { SourceError } from '../source.ts';

export type HttpClientOptions = {
  /** Sent on every request; sites ask for a descriptive one. */
  readonly userAgent: string;
  /** Limit on each attempt, from sending to the last byte of the body. */
  readonly timeoutMs?: number;
  /** Attempts of one request before the fault goes up to the loop (which reports and waits). */
  readonly attempts?: number;
  /** First backoff; doubled each attempt, with jitter. */
  readonly backoffMs?: number;
  /** A Retry-After longer than this is not slept through here but handed to the loop. */
  readonly maxInlineWaitMs?: number;
  /** Told of each fault that is retried, for the logs. */
  readonly onRetry?: (error: SourceError, attempt: number, waitMs: number) => void;
};

export type JsonResponse = {
  readonly json: unknown;
  readonly headers: Headers;
  readonly status: number;
};

export type RequestOptions = {
  readonly method?: 'GET' | 'POST';
  readonly headers?: Record<string, string>;
  readonly body?: string;
  readonly signal?: AbortSignal;
  /**
   * 4xx statuses whose JSON body the caller reads itself (Stack Exchange sends every error as a
   * 400 with its kind in the body) instead of a thrown error.
   */
  readonly acceptStatuses?: readonly number[];
};

export type HttpClient = {
  getJson(url: string, options?: RequestOptions): Promise<JsonResponse>;
};

/**
 * JSON over HTTP for the connectors: a timeout on every attempt; connection faults, timeouts,
 * 5xx, 429 and bodies that are not JSON (truncated, an HTML error page) retried with backoff
 * that honours Retry-After; other 4xx answered at once as typed errors (401 is 'auth', so a
 * connector can renew its token).
 */
export function createHttpClient(options: HttpClientOptions): HttpClient {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const attempts = options.attempts ?? 3;
  const backoffMs = options.backoffMs ?? 500;
  const maxInlineWaitMs = options.maxInlineWaitMs ?? 30_000;

  async function attempt(url: string, request: RequestOptions): Promise<JsonResponse> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: request.method ?? 'GET',
        headers: {
          'user-agent': options.userAgent,
          accept: 'application/json',
          ...request.headers,
        },
        body: request.body,
        signal,
        redirect: 'follow',
      });
      text = await response.text();
    } catch (error) {
      if (request.signal?.aborted) throw new SourceError('aborted', 'stopped', { cause: error });
      if (timeout.aborted) {
        throw new SourceError('timeout', `no answer from ${where(url)} within ${timeoutMs} ms`);
      }
      throw new SourceError('network', `cannot reach ${where(url)}: ${describe(error)}`, {
        cause: error,
      });
    }
    const status = response.status;
    const accepted = request.acceptStatuses?.includes(status) ?? false;
    if (!accepted && (status === 429 || status >= 500 || status === 408)) {
      throw new SourceError(
        status === 429 ? 'rate-limited' : 'http-status',
        `${where(url)} answered ${status}`,
        { status, retryAfterMs: retryAfterMs(response.headers.get('retry-after')) },
      );
    }
    // GitHub's primary rate limit answers 403 with no requests left until a reset time.
    if (!accepted && status === 403 && response.headers.get('x-ratelimit-remaining') === '0') {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      throw new SourceError('rate-limited', `${where(url)} answered ${status}: out of requests`, {
        status,
        retryAfterMs:
          retryAfterMs(response.headers.get('retry-after')) ??
          (Number.isFinite(reset) && reset > 0
            ? Math.max(0, reset * 1000 - Date.now())
            : undefined),
      });
    }
    if (!accepted && (status === 401 || status === 403)) {
      throw new SourceError('auth', `${where(url)} answered ${status}`, { status });
    }
    if (!accepted && status >= 400) {
      throw new SourceError('http-status', `${where(url)} answered ${status}`, { status });
    }
    // Not modified (a conditional request): nothing new, no body.
    if (status === 304) return { json: null, headers: response.headers, status };
    try {
      return { json: JSON.parse(text) as unknown, headers: response.headers, status };
    } catch {
      throw new SourceError(
        'malformed',
        `${where(url)} sent ${text.length} bytes that are not JSON (${JSON.stringify(text.slice(0, 40))}…)`,
        { status },
      );
    }
  }

  return {
    async getJson(url, request = {}) {
      for (let tried = 1; ; tried++) {
        try {
          return await attempt(url, request);
        } catch (error) {
          if (!(error instanceof SourceError) || !retryable(error) || tried >= attempts)
            throw error;
          const backoff = backoffMs * 2 ** (tried - 1) * (0.75 + Math.random() * 0.5);
          const wait = Math.max(backoff, error.retryAfterMs ?? 0);
          if (wait > maxInlineWaitMs) throw error;
          options.onRetry?.(error, tried, wait);
          await sleep(wait, undefined, { signal: request.signal });
        }
      }
    },
  };
}

function retryable(error: SourceError): boolean {
  return (
    error.kind === 'timeout' ||
    error.kind === 'network' ||
    error.kind === 'malformed' ||
    error.kind === 'rate-limited' ||
    (error.kind === 'http-status' && (error.status ?? 0) >= 500) ||
    error.status === 408
  );
}

/** Retry-After in seconds or as an HTTP date, in milliseconds; undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/u.test(value)) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

// The host and path only: a query string may carry ids by the hundred (never secrets here,
// but long).
function where(url: string): string {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname}`;
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause;
    if (cause instanceof Error) {
      const code = 'code' in cause ? String(cause.code) : '';
      return code || cause.message;
    }
    return error.message;
  }
  return String(error);
}
