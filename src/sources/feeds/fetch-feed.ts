import { request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * One GET of an address a user added (docs/product.md, "Feeds by URL"), under the address rules
 * of webhooks (decision 0016): http(s) only, and unless `allowPrivate`, every address the name
 * resolves to must be public, checked on the resolved address the connection then uses, for the
 * first request and each redirect (followed here, at most five). A conditional GET with the
 * validators of the last answer; 304 is `not-modified` and its body is never read. The body is
 * cut off past `maxBytes` (after decompression) and the whole call past `timeoutMs`. Every
 * failure is a `FeedFetchError` whose message is shown to the user as it is ("404 Not Found",
 * "TLS certificate expired", "this address is not allowed").
 */
export type FeedFetchOptions = {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /**
   * Which addresses may be reached (decision 0016, `src/platform/public-address.ts`, handed in by
   * the caller: a source imports no platform code): `lookup` resolves a name and refuses it when an
   * address is not allowed, with an error named `ForbiddenAddressError`; `isAllowed` judges an
   * address written as a literal, which is never looked up. Null lifts the rule
   * (FEEDS_ALLOW_PRIVATE).
   */
  readonly addressRule: {
    readonly lookup: LookupFunction;
    readonly isAllowed: (address: string) => boolean;
  } | null;
  readonly etag?: string | null;
  readonly lastModified?: string | null;
  readonly signal?: AbortSignal;
  /** Sent as `Accept`. */
  readonly accept?: string;
};

export type FeedFetchResult =
  | { readonly status: 'not-modified'; readonly url: string }
  | {
      readonly status: 'ok';
      /** Where the body came from, after redirects. */
      readonly url: string;
      readonly contentType: string;
      readonly text: string;
      readonly etag: string | null;
      readonly lastModified: string | null;
    };

export class FeedFetchError extends Error {
  override name = 'FeedFetchError';
  /** The site asked to wait this long (429 or 503 with Retry-After). */
  readonly retryAfterMs: number | undefined;
  constructor(message: string, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.retryAfterMs = options.retryAfterMs;
  }
}

const MAX_REDIRECTS = 5;
/** What a user sees for an address the rules refuse: never what a name resolved to. */
const NOT_ALLOWED = 'this address is not allowed';
const USER_AGENT = 'Earshot feed reader (+https://github.com/earshot)';
export const FEED_ACCEPT =
  'application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, application/xml;q=0.8, text/xml;q=0.8, text/html;q=0.5, */*;q=0.1';

/** Whether a URL may be asked for at all: an http(s) address without credentials. */
export function feedUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not a valid address';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https addresses';
  if (url.username || url.password) return 'an address with a user name or password is not allowed';
  return null;
}

export async function fetchFeed(
  address: string,
  options: FeedFetchOptions,
): Promise<FeedFetchResult> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadline]) : deadline;
  let url = address;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const problem = feedUrlProblem(url);
    if (problem) throw new FeedFetchError(problem);
    const response = await get(url, options, signal, hop === 0);
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && status !== 304) {
      response.resume();
      const location = response.headers.location;
      if (!location) throw new FeedFetchError(`${status} redirect without a Location`);
      url = new URL(location, url).href;
      continue;
    }
    if (status === 304) {
      response.resume();
      return { status: 'not-modified', url };
    }
    if (status < 200 || status >= 300) {
      response.resume();
      throw new FeedFetchError(`${status} ${STATUS_CODES[status] ?? 'error'}`.trim(), {
        retryAfterMs:
          status === 429 || status === 503
            ? retryAfterMs(response.headers['retry-after'])
            : undefined,
      });
    }
    const bytes = await readBody(response, options.maxBytes, signal);
    const contentType = String(response.headers['content-type'] ?? '');
    return {
      status: 'ok',
      url,
      contentType,
      text: decode(bytes, contentType),
      etag: header(response, 'etag'),
      lastModified: header(response, 'last-modified'),
    };
  }
  throw new FeedFetchError('too many redirects');
}

function header(response: IncomingMessage, name: string): string | null {
  const value = response.headers[name];
  return typeof value === 'string' && value.length > 0 && value.length <= 512 ? value : null;
}

function get(
  url: string,
  options: FeedFetchOptions,
  signal: AbortSignal,
  conditional: boolean,
): Promise<IncomingMessage> {
  const target = new URL(url);
  const rule = options.addressRule;
  // A literal address is never looked up, so the lookup's check would not see it.
  const literal = target.hostname.replace(/^\[|\]$/gu, '');
  if (rule && isIP(literal) !== 0 && !rule.isAllowed(literal)) {
    return Promise.reject(new FeedFetchError(NOT_ALLOWED));
  }
  const request = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: options.accept ?? FEED_ACCEPT,
    'accept-encoding': 'gzip, deflate, br',
  };
  // The validators belong to the address they were given for; after a redirect they may not.
  if (conditional && options.etag) headers['if-none-match'] = options.etag;
  if (conditional && options.lastModified) headers['if-modified-since'] = options.lastModified;
  return new Promise((resolve, reject) => {
    const req = request(
      target,
      {
        method: 'GET',
        headers,
        signal,
        ...(rule ? { lookup: rule.lookup } : {}),
      },
      resolve,
    );
    req.on('error', (error) => reject(describeFailure(error, signal)));
    req.end();
  });
}

async function readBody(response: IncomingMessage, maxBytes: number, signal: AbortSignal) {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  const declared = Number(response.headers['content-length']);
  if (!encoding && Number.isFinite(declared) && declared > maxBytes) {
    response.destroy();
    throw tooLarge(maxBytes);
  }
  let stream: Readable = response;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(createGunzip());
  else if (encoding === 'deflate') stream = response.pipe(createInflate());
  else if (encoding === 'br') stream = response.pipe(createBrotliDecompress());
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(buffer);
    }
  } catch (error) {
    response.destroy();
    if (error instanceof FeedFetchError) throw error;
    throw describeFailure(error, signal);
  }
  return Buffer.concat(chunks);
}

const tooLarge = (maxBytes: number) =>
  new FeedFetchError(`the answer is larger than ${formatBytes(maxBytes)}`);

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`
    : `${Math.round(bytes / 1024)} KB`;
}

/**
 * The body as text: the charset of `Content-Type`, else of the XML declaration, else UTF-8. Bytes
 * that are not valid in it become U+FFFD rather than failing the feed.
 */
export function decode(bytes: Buffer, contentType: string): string {
  const head = bytes.subarray(0, 200).toString('latin1');
  const charset =
    /charset\s*=\s*"?([\w.:-]+)/iu.exec(contentType)?.[1] ??
    /^\s*<\?xml[^>]*encoding\s*=\s*["']([\w.:-]+)["']/iu.exec(head)?.[1] ??
    'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    // An unknown charset label: read it as UTF-8 rather than refuse the feed.
    return new TextDecoder('utf-8').decode(bytes);
  }
}

function retryAfterMs(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/** A network failure in words a user can act on; never an address inside our network. */
function describeFailure(error: unknown, signal: AbortSignal): FeedFetchError {
  if (error instanceof FeedFetchError) return error;
  if ((error as { name?: string }).name === 'ForbiddenAddressError') {
    return new FeedFetchError(NOT_ALLOWED);
  }
  if (signal.aborted) {
    const reason = signal.reason as { name?: string } | undefined;
    return new FeedFetchError(
      reason?.name === 'TimeoutError' ? 'no answer in time' : 'the fetch was stopped',
      { cause: error },
    );
  }
  const code = (error as { code?: string }).code ?? '';
  const words: Record<string, string> = {
    ENOTFOUND: 'no such host',
    EAI_AGAIN: 'the host name could not be resolved',
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'the connection was reset',
    ETIMEDOUT: 'no answer in time',
    EHOSTUNREACH: 'host unreachable',
    CERT_HAS_EXPIRED: 'TLS certificate expired',
    DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
    SELF_SIGNED_CERT_IN_CHAIN: 'TLS certificate is self-signed',
    UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'TLS certificate cannot be verified',
    ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate is for another name',
    Z_DATA_ERROR: 'the compressed answer is broken',
  };
  return new FeedFetchError(words[code] ?? 'the fetch failed', { cause: error });
}
