import { z } from 'zod';
import type { HttpClient } from '../http/http-client.ts';
import type { NormalisedItem } from '../normalised-item.ts';
import { countSkip, type Source, type SourceBatch, SourceError } from '../source.ts';
import { normaliseLobstersComment, normaliseLobstersStory } from './normalise.ts';

/**
 * Lobsters' short ids are random, not sequential: the cursor is the ids of the newest stories
 * and comments already read (newest first), and a call reads pages until it meets one of them.
 */
export type LobstersCursor = {
  readonly stories: readonly string[];
  readonly comments: readonly string[];
};

const cursorSchema = z.object({
  stories: z.array(z.string()),
  comments: z.array(z.string()),
});

/** Ids remembered per list: far more than the 25 of a page, so a deleted one never loses the place. */
const REMEMBERED = 300;
/** Pages read per list and call when everything is new (after a long stop). */
const MAX_PAGES = 4;

const recordSchema = z.object({ short_id: z.string().min(1) }).passthrough();

export type LobstersSourceOptions = {
  readonly http: HttpClient;
  /** e.g. https://lobste.rs */
  readonly baseUrl: string;
  readonly pollIntervalMs: number;
};

/** `/newest.json` and `/comments.json`, newest first. */
export function createLobstersSource(options: LobstersSourceOptions): Source<LobstersCursor> {
  const base = options.baseUrl.replace(/\/+$/u, '');

  /** The records newer than the first remembered one, newest first. */
  async function readNew(
    list: 'newest' | 'comments',
    seen: readonly string[] | null,
    signal: AbortSignal,
  ) {
    const known = new Set(seen ?? []);
    const fresh: z.infer<typeof recordSchema>[] = [];
    const unreadable: unknown[] = [];
    for (let page = 1; page <= (seen === null ? 1 : MAX_PAGES); page++) {
      const path = page === 1 ? `/${list}.json` : `/${list}/page/${page}.json`;
      const { json } = await options.http.getJson(`${base}${path}`, { signal });
      if (!Array.isArray(json)) throw new SourceError('malformed', `${path} is not a list`);
      let metKnown = false;
      for (const raw of json) {
        const record = recordSchema.safeParse(raw);
        if (!record.success) {
          unreadable.push(raw);
          continue;
        }
        if (known.has(record.data.short_id)) {
          metKnown = true;
          break;
        }
        fresh.push(record.data);
      }
      if (metKnown || json.length === 0) break;
    }
    return { fresh, unreadable };
  }

  return {
    name: 'lobsters',
    pollIntervalMs: options.pollIntervalMs,
    parseCursor(stored) {
      const parsed = cursorSchema.safeParse(stored);
      return parsed.success ? parsed.data : null;
    },
    async fetchNew(cursor, signal): Promise<SourceBatch<LobstersCursor>> {
      const stories = await readNew('newest', cursor?.stories ?? null, signal);
      const comments = await readNew('comments', cursor?.comments ?? null, signal);
      const items: NormalisedItem[] = [];
      const skipped: Record<string, number> = {};
      for (const _ of [...stories.unreadable, ...comments.unreadable])
        countSkip(skipped, 'invalid');
      // Oldest first, as they appeared.
      for (const raw of stories.fresh.toReversed()) {
        const result = normaliseLobstersStory(raw);
        if (result.status === 'item') items.push(result.item);
        else countSkip(skipped, result.reason);
      }
      for (const raw of comments.fresh.toReversed()) {
        const result = normaliseLobstersComment(raw, storyOf(raw));
        if (result.status === 'item') items.push(result.item);
        else countSkip(skipped, result.reason);
      }
      const remember = (fresh: { short_id: string }[], old: readonly string[] | undefined) =>
        [...fresh.map((record) => record.short_id), ...(old ?? [])].slice(0, REMEMBERED);
      return {
        items,
        skipped,
        cursor: {
          stories: remember(stories.fresh, cursor?.stories),
          comments: remember(comments.fresh, cursor?.comments),
        },
        more: false,
      };
    },
  };
}

/**
 * A comment's story: `story_id` when the answer has it, else the `/s/<id>/` of its URL; its
 * title when the answer names it (`story_title`), else the pipeline finds it from the stored story.
 */
function storyOf(raw: Record<string, unknown>): { id: string; title: string | null } | null {
  const id = storyIdOf(raw);
  if (id === null) return null;
  return { id, title: typeof raw.story_title === 'string' ? raw.story_title : null };
}

function storyIdOf(raw: Record<string, unknown>): string | null {
  if (typeof raw.story_id === 'string') return raw.story_id;
  const url =
    typeof raw.url === 'string'
      ? raw.url
      : typeof raw.short_id_url === 'string'
        ? raw.short_id_url
        : '';
  return /\/s\/([a-z0-9]+)/u.exec(url)?.[1] ?? null;
}
