import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import {
  countSkip,
  type Source,
  type SourceBatch,
  SourceError,
  type SourceStatus,
} from '../source.ts';
import {
  normaliseStackExchangeRecord,
  recordKey,
  STACKEXCHANGE_METHODS,
  type StackExchangeMethod,
  type StackExchangeWrapper,
  wrapperSchema,
} from './normalise.ts';

/**
 * Where the reading of one method of one site is: the newest creation second read (`from`), the
 * ids read at or after `from` less the overlap (creation dates are whole seconds, and a post may
 * show up a little after others of its second), and when the site's `backoff` lets the method
 * be called again (ms since the epoch).
 */
export type MethodCursor = {
  readonly from: number;
  readonly seen: readonly (readonly [id: number, at: number])[];
  readonly notBefore: number;
};

export type StackExchangeCursor = {
  /** Per site (its API name), per method. */
  readonly sites: Readonly<Record<string, Readonly<Record<StackExchangeMethod, MethodCursor>>>>;
  /** The day's requests as the last answer counted them. */
  readonly quota: { readonly max: number; readonly remaining: number } | null;
  /** No request before this (ms since the epoch): the day's requests are spread out. */
  readonly notBefore: number;
};

const methodCursorSchema = z.object({
  from: z.number().int().nonnegative(),
  seen: z.array(z.tuple([z.number().int(), z.number().int()])),
  notBefore: z.number(),
});
const cursorSchema = z.object({
  sites: z.record(
    z.string(),
    z.object({
      questions: methodCursorSchema,
      answers: methodCursorSchema,
      comments: methodCursorSchema,
    }),
  ),
  quota: z.object({ max: z.number().int(), remaining: z.number().int() }).nullable(),
  notBefore: z.number(),
});

const PAGE_SIZE = 100;
/** Pages of one method read per call; more waiting is read at once by the next call. */
const MAX_PAGES = 3;
/** Each read starts this far before the newest second read, for posts that show up late. */
const OVERLAP_SECONDS = 60;
/** Below this share of the day's requests left, polls are spread over the rest of the day. */
const SHORT_SHARE = 0.5;
const DAY_MS = 86_400_000;

export type StackExchangeSourceOptions = {
  readonly http: HttpClient;
  /** e.g. https://api.stackexchange.com/2.3 */
  readonly apiUrl: string;
  /** The sites' API names (`stackoverflow`, `superuser`, …). */
  readonly sites: readonly string[];
  /** An app key: 10,000 requests a day instead of 300. */
  readonly key?: string | undefined;
  readonly pollIntervalMs: number;
  /** How far back a first start reads. */
  readonly backfillMs?: number;
  readonly now?: () => number;
};

/** The next midnight UTC: when the day's quota is taken to start again. */
const nextResetAt = (now: number) => (Math.floor(now / DAY_MS) + 1) * DAY_MS;

/**
 * New questions, answers and comments of each configured Stack Exchange site (API 2.3,
 * `filter=withbody`), each method read in creation order from its cursor (`min`/`fromdate`).
 * The site counts requests a day per address (300 without a key, 10,000 with one) in every
 * answer (`quota_remaining`): while more than half is left the configured interval holds, below
 * that the calls are spread over what is left of the day, and at none the source waits for
 * midnight UTC. A `backoff` in an answer keeps that method alone quiet for as long as it says.
 * Every error comes as a 400 with its kind in the body: `throttle_violation` is a rate-limit
 * fault that waits as the message says.
 */
export function createStackExchangeSource(
  options: StackExchangeSourceOptions,
): Source<StackExchangeCursor> {
  const base = options.apiUrl.replace(/\/+$/u, '');
  const now = options.now ?? Date.now;
  const backfillMs = options.backfillMs ?? 10 * 60_000;
  const requestsPerPoll = options.sites.length * STACKEXCHANGE_METHODS.length;
  let note: string | null = null;

  const fresh = (at: number): MethodCursor => ({
    from: Math.floor((at - backfillMs) / 1000),
    seen: [],
    notBefore: 0,
  });

  async function call(
    site: string,
    method: StackExchangeMethod,
    from: number,
    page: number,
    signal: AbortSignal,
  ): Promise<StackExchangeWrapper & { items: unknown[] }> {
    const query = new URLSearchParams({
      site,
      sort: 'creation',
      order: 'asc',
      min: String(from),
      fromdate: String(from),
      filter: 'withbody',
      pagesize: String(PAGE_SIZE),
      page: String(page),
    });
    if (options.key) query.set('key', options.key);
    const answer = await options.http.getJson(`${base}/${method}?${query}`, {
      signal,
      acceptStatuses: [400],
    });
    const parsed = wrapperSchema.safeParse(answer.json);
    if (!parsed.success) throw new SourceError('malformed', `/${method} is not the API's wrapper`);
    const wrapper = parsed.data;
    if (answer.status === 400 || wrapper.error_id !== undefined) throw errorOf(method, wrapper);
    if (!Array.isArray(wrapper.items)) {
      throw new SourceError('malformed', `/${method} has no list of items`);
    }
    return { ...wrapper, items: wrapper.items };
  }

  async function readMethod(
    site: string,
    method: StackExchangeMethod,
    state: MethodCursor,
    signal: AbortSignal,
  ) {
    const known = new Set(state.seen.map(([id]) => id));
    const start = Math.max(0, state.from - OVERLAP_SECONDS);
    const raws: { raw: unknown; id: number; at: number }[] = [];
    let invalid = 0;
    let last: StackExchangeWrapper | null = null;
    let more = false;
    for (let page = 1; page <= MAX_PAGES; page++) {
      last = await call(site, method, start, page, signal);
      for (const raw of last.items ?? []) {
        const key = recordKey(method, raw);
        if (key === null) invalid++;
        else if (!known.has(key.id)) {
          known.add(key.id);
          raws.push({ raw, id: key.id, at: key.at });
        }
      }
      more = last.has_more === true;
      if (!more || last.backoff !== undefined) break;
    }
    const newest = raws.reduce((at, entry) => Math.max(at, entry.at), state.from);
    // Ids still inside the next read's window, so that overlap is dropped, not stored twice.
    const seen = [...state.seen, ...raws.map(({ id, at }) => [id, at] as const)].filter(
      ([, at]) => at >= newest - OVERLAP_SECONDS,
    );
    const cursor: MethodCursor = {
      from: newest,
      seen,
      notBefore: last?.backoff ? now() + last.backoff * 1000 : 0,
    };
    return { raws, invalid, cursor, wrapper: last, more };
  }

  return {
    name: 'stackoverflow',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    status(): SourceStatus {
      return { note, queue: null };
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<StackExchangeCursor>> {
      const at = now();
      if (cursor && at < cursor.notBefore) {
        return { items: [], skipped: {}, cursor, more: false };
      }
      const found: { item: NormalisedItem; order: number }[] = [];
      const skipped: Record<string, number> = {};
      const sites: Record<string, Record<StackExchangeMethod, MethodCursor>> = {};
      let quota = cursor?.quota ?? null;
      let more = false;
      for (const site of options.sites) {
        const before = cursor?.sites[site];
        const next = {} as Record<StackExchangeMethod, MethodCursor>;
        for (const method of STACKEXCHANGE_METHODS) {
          const state = before?.[method] ?? fresh(at);
          if (at < state.notBefore) {
            next[method] = state;
            continue;
          }
          const read = await readMethod(site, method, state, signal);
          next[method] = read.cursor;
          more ||= read.more;
          for (let i = 0; i < read.invalid; i++) countSkip(skipped, 'invalid');
          for (const { raw, at: second } of read.raws) {
            const result = normaliseStackExchangeRecord(site, method, raw);
            if (result.status === 'item') found.push({ item: result.item, order: second });
            else countSkip(skipped, result.reason);
          }
          const { quota_max: max, quota_remaining: remaining } = read.wrapper ?? {};
          if (max !== undefined && remaining !== undefined) quota = { max, remaining };
        }
        sites[site] = next;
      }
      // In creation order across the methods, so a question is stored before its answers.
      const items = found.sort((a, b) => a.order - b.order).map(({ item }) => item);
      const wait = spreadMs(quota, requestsPerPoll, at);
      note = describeQuota(quota, wait, Boolean(options.key));
      return {
        items,
        skipped,
        cursor: { sites, quota, notBefore: wait > 0 ? at + wait : 0 },
        more: more && wait === 0,
      };
    },
  };
}

/**
 * How long to wait before the next poll so that the day's requests last until midnight UTC:
 * none while more than half is left, the rest of the day when none is.
 */
export function spreadMs(
  quota: StackExchangeCursor['quota'],
  requestsPerPoll: number,
  now: number,
): number {
  if (quota === null || quota.max <= 0) return 0;
  const untilReset = nextResetAt(now) - now;
  if (quota.remaining <= 0) return untilReset;
  if (quota.remaining >= quota.max * SHORT_SHARE) return 0;
  return Math.ceil(untilReset / Math.max(1, quota.remaining / requestsPerPoll));
}

/** The health line's note when the day's requests run short; null while they do not. */
export function describeQuota(
  quota: StackExchangeCursor['quota'],
  waitMs: number,
  hasKey: boolean,
): string | null {
  if (quota === null || waitMs === 0) return null;
  const hint = hasKey ? '' : ' (STACKEXCHANGE_KEY raises the day’s 300 requests to 10,000)';
  if (quota.remaining <= 0) return `out of requests until midnight UTC${hint}`;
  const minutes = Math.max(1, Math.round(waitMs / 60_000));
  return `requests running short: ${quota.remaining} of ${quota.max} left today, a poll every ${minutes} min${hint}`;
}

/** An error wrapper (https://api.stackexchange.com/docs/error-handling) as a typed fault. */
function errorOf(method: StackExchangeMethod, wrapper: StackExchangeWrapper): SourceError {
  const message = `/${method} answered ${wrapper.error_name ?? 'an error'} (${wrapper.error_id ?? '?'}): ${wrapper.error_message ?? ''}`;
  if (wrapper.error_name === 'throttle_violation') {
    const seconds = Number(/(\d+) seconds?/u.exec(wrapper.error_message ?? '')?.[1]);
    return new SourceError('rate-limited', message, {
      status: 400,
      retryAfterMs: (Number.isFinite(seconds) ? seconds : 60) * 1000,
    });
  }
  if (wrapper.error_name === 'temporarily_unavailable' || wrapper.error_name === 'internal_error') {
    return new SourceError('http-status', message, { status: wrapper.error_id ?? 503 });
  }
  if (wrapper.error_name === 'bad_parameter' && /\bkey\b/iu.test(wrapper.error_message ?? '')) {
    return new SourceError('auth', message, { status: 400 });
  }
  return new SourceError('http-status', message, { status: 400 });
}
