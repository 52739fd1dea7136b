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
import { instanceKey, normaliseMastodonStatus, parseMastodonStatus } from './normalise.ts';
import { createPublicStream } from './public-stream.ts';

/**
 * Where the reading of each instance is: the newest status id read, by instance key. Ids are
 * each instance's own, and grow with time (snowflakes since 2.0, sequence numbers before).
 */
export type MastodonCursor = { readonly instances: Readonly<Record<string, string>> };

const cursorSchema = z.object({ instances: z.record(z.string(), z.string().min(1)) });

/** Mastodon's largest page of a timeline. */
export const PAGE = 40;
/** Pages read of one instance per call when far behind (after a stop): 400 statuses. */
const MAX_PAGES = 10;

export type MastodonInstance = {
  /** e.g. https://mastodon.social */
  readonly url: string;
  /** An access token, for instances that show their timeline only to signed-in apps. */
  readonly token?: string | undefined;
};

export type MastodonSourceOptions = {
  readonly http: HttpClient;
  readonly instances: readonly MastodonInstance[];
  readonly pollIntervalMs: number;
  /** Read each instance's streaming API where it allows it (polling stays the fallback). */
  readonly streaming?: boolean;
  /** How soon a dropped stream is opened again (public-stream.ts's default when absent). */
  readonly streamRetryMs?: number | undefined;
  readonly userAgent?: string;
  readonly now?: () => number;
};

/** Whether snowflake or sequence id `a` is after `b` (ids are decimal strings of any length). */
export function idAfter(a: string, b: string): boolean {
  return a.length === b.length ? a > b : a.length > b.length;
}

/**
 * The local public timeline of each configured instance (`/api/v1/timelines/public?local=true`),
 * polled with `min_id`, the page just after the newest status read, so that a burst larger
 * than a page is read page by page and nothing between two polls is skipped. A first start
 * reads the latest page (the backfill). A fault of any instance leaves every cursor where it
 * was (the statuses read are read again and stored once).
 *
 * Where the instance allows it, its streaming API (`/api/v1/streaming/public/local`, server-sent
 * events) is read too (`public-stream.ts`): once a poll that began after the stream opened has
 * caught up, the statuses the stream pushed are handed over instead of polling, with no request.
 * The stream dropping, stalling or overflowing puts the instance back on polling from its cursor,
 * so nothing pushed but not yet stored is lost; an instance that refuses streaming is polled and
 * asked again ten minutes later.
 */
export function createMastodonSource(options: MastodonSourceOptions): Source<MastodonCursor> {
  const now = options.now ?? Date.now;
  const instances = options.instances.map((instance) => {
    const base = instance.url.replace(/\/+$/u, '');
    return {
      ...instance,
      base,
      key: instanceKey(instance.url),
      stream:
        options.streaming === false
          ? null
          : createPublicStream({
              url: `${base}/api/v1/streaming/public/local`,
              token: instance.token,
              userAgent: options.userAgent ?? 'earshot',
              now,
              ...(options.streamRetryMs === undefined
                ? {}
                : { droppedRetryMs: options.streamRetryMs }),
            }),
    };
  });
  const watched = new WeakSet<AbortSignal>();
  /** The newest id last returned per instance: another one passed back means a batch was not stored. */
  const returned = new Map<string, string | undefined>();

  async function readPage(
    instance: (typeof instances)[number],
    minId: string | undefined,
    signal: AbortSignal,
  ) {
    const query = new URLSearchParams({ local: 'true', limit: String(PAGE) });
    if (minId !== undefined) query.set('min_id', minId);
    const path = `/api/v1/timelines/public?${query}`;
    let answer: Awaited<ReturnType<HttpClient['getJson']>>;
    try {
      answer = await options.http.getJson(`${instance.base}${path}`, {
        signal,
        ...(instance.token ? { headers: { authorization: `Bearer ${instance.token}` } } : {}),
      });
    } catch (error) {
      if (error instanceof SourceError && (error.status === 401 || error.status === 422)) {
        throw new SourceError(
          'auth',
          `${instance.key} shows its public timeline only to signed-in apps: give it an access token (MASTODON_ACCESS_TOKENS)`,
          { status: error.status, cause: error },
        );
      }
      throw error;
    }
    if (!Array.isArray(answer.json)) {
      throw new SourceError('malformed', `${instance.key}${path.split('?')[0]} is not a list`);
    }
    const outOfRequests = answer.headers.get('x-ratelimit-remaining') === '0';
    return { statuses: answer.json as unknown[], outOfRequests };
  }

  return {
    name: 'mastodon',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    status(): SourceStatus {
      const streams = instances.filter((instance) => instance.stream !== null);
      if (streams.length === 0) return { note: null, queue: null };
      const live = streams.filter((instance) => instance.stream?.synced());
      return {
        note:
          live.length === streams.length
            ? `streaming${streams.length > 1 ? ` from ${streams.length} instances` : ''}`
            : `polling ${streams
                .filter((instance) => !instance.stream?.synced())
                .map(
                  (instance) =>
                    `${instance.key}${instance.stream?.why() ? ` (${instance.stream.why()})` : ''}`,
                )
                .join(', ')}`,
        queue: null,
      };
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<MastodonCursor>> {
      if (!watched.has(signal)) {
        watched.add(signal);
        signal.addEventListener(
          'abort',
          () => {
            for (const instance of instances) instance.stream?.close();
          },
          { once: true },
        );
      }
      const next: Record<string, string> = { ...cursor?.instances };
      const items: NormalisedItem[] = [];
      const skipped: Record<string, number> = {};
      const handedOver = new Set<string>();
      const hand = (instance: (typeof instances)[number], raw: unknown) => {
        const result = normaliseMastodonStatus(instance.url, raw);
        if (result.status !== 'item') countSkip(skipped, result.reason);
        else if (!handedOver.has(result.item.externalId)) {
          handedOver.add(result.item.externalId);
          items.push(result.item);
        }
      };
      let more = false;
      for (const instance of instances) {
        let newest = cursor?.instances[instance.key];
        const stream = instance.stream;
        stream?.open();
        // The batch last returned was not stored: poll from the stored cursor again.
        if (stream?.synced() && returned.get(instance.key) !== newest) stream.unsync();
        // Streaming and caught up: what it pushed is what is new, no request needed.
        if (stream?.synced() && newest !== undefined) {
          for (const raw of stream.take()) {
            const parsed = parseMastodonStatus(raw);
            if (!parsed.ok) {
              countSkip(skipped, 'invalid');
              continue;
            }
            if (idAfter(parsed.status.id, newest)) newest = parsed.status.id;
            hand(instance, raw);
          }
          next[instance.key] = newest;
          returned.set(instance.key, newest);
          continue;
        }
        const pollStartedAt = now();
        let caughtUp = true;
        for (let page = 0; page < (newest === undefined ? 1 : MAX_PAGES); page++) {
          const read = await readPage(instance, newest, signal);
          // Newest first on the wire; stored oldest first.
          const fresh: { id: string; raw: unknown }[] = [];
          for (const raw of read.statuses) {
            const parsed = parseMastodonStatus(raw);
            if (!parsed.ok) {
              countSkip(skipped, 'invalid');
              continue;
            }
            if (newest === undefined || idAfter(parsed.status.id, newest)) {
              fresh.push({ id: parsed.status.id, raw });
            }
          }
          fresh.sort((a, b) => (idAfter(a.id, b.id) ? 1 : idAfter(b.id, a.id) ? -1 : 0));
          for (const { raw } of fresh) hand(instance, raw);
          const last = fresh.at(-1);
          if (last) newest = last.id;
          const full = read.statuses.length >= PAGE && last !== undefined;
          // Out of requests for this window: the rest waits for the next poll.
          if (!full || read.outOfRequests) {
            caughtUp = !full;
            break;
          }
          if (page === MAX_PAGES - 1) {
            more = true;
            caughtUp = false;
          }
        }
        // A poll that began with the stream open has read up to now: from here the stream's
        // statuses are enough. Those it pushed meanwhile are handed over too (the store keeps
        // each once).
        if (stream && caughtUp && newest !== undefined && stream.liveSince(pollStartedAt)) {
          stream.markSynced();
          for (const raw of stream.take()) {
            const parsed = parseMastodonStatus(raw);
            if (parsed.ok && idAfter(parsed.status.id, newest)) newest = parsed.status.id;
            hand(instance, raw);
          }
        }
        if (newest !== undefined) next[instance.key] = newest;
        returned.set(instance.key, newest);
      }
      return { items, skipped, cursor: { instances: next }, more };
    },
  };
}
