import type { ReplayAnswer, ReplayClock } from '../sources/replay-site.ts';
import type { RawRecord } from './corpus.ts';
import { answer } from './replay-answer.ts';

const PAGE = 25;

/**
 * Lobsters' `/newest.json` and `/comments.json` (and their `/page/<n>` pages) over recorded
 * stories and comments, revealed in the order they were written. Short ids are kept, with a
 * suffix per cycle when looping.
 */
export function createLobstersReplay(
  stories: readonly RawRecord[],
  comments: readonly RawRecord[],
  cap: number,
  reveal: ReplayClock,
) {
  const entries = [
    ...stories.map((record) => ({ kind: 'story' as const, record })),
    ...comments.map((record) => ({ kind: 'comment' as const, record })),
  ]
    .sort(
      (a, b) => Date.parse(String(a.record.created_at)) - Date.parse(String(b.record.created_at)),
    )
    .slice(0, cap);
  const size = entries.length;

  function record(index: number, wrongType: boolean) {
    const cycle = Math.floor(index / size);
    const entry = entries[index % size] as (typeof entries)[number];
    const suffix = cycle === 0 ? '' : String(cycle);
    const copy: RawRecord = {
      ...entry.record,
      short_id: `${String(entry.record.short_id)}${suffix}`,
      created_at: wrongType ? 42 : new Date(reveal.revealedAt(index)).toISOString(),
    };
    if (suffix && typeof copy.url === 'string' && entry.kind === 'comment') {
      copy.url = copy.url.replace(/\/s\/([a-z0-9]+)/u, `/s/$1${suffix}`);
    }
    return { kind: entry.kind, record: copy };
  }

  return {
    externalId: (index: number) => String(record(index, false).record.short_id),
    indexOf(externalId: string): number {
      for (let index = 0; index < reveal.revealed(); index++) {
        if (record(index, false).record.short_id === externalId) return index;
      }
      return -1;
    },
    /** The answer to `pathname`; with `wrongType`, its first record has a wrong-typed date. */
    answer(pathname: string, wrongType: boolean): ReplayAnswer {
      const page = /^\/(newest|comments)(?:\/page\/(\d+))?\.json$/u.exec(pathname);
      if (!page) return answer(404, { error: 'not found' });
      const want = page[1] === 'newest' ? 'story' : 'comment';
      const skip = (Number(page[2] ?? 1) - 1) * PAGE;
      const records: RawRecord[] = [];
      let seen = 0;
      for (let index = reveal.revealed() - 1; index >= 0 && records.length < PAGE; index--) {
        const entry = record(index, false);
        if (entry.kind !== want) continue;
        if (seen++ < skip) continue;
        records.push(records.length === 0 && wrongType ? record(index, true).record : entry.record);
      }
      return answer(200, records);
    },
  };
}
