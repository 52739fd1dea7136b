import type { ReplayAnswer, ReplayClock } from '../sources/replay-site.ts';
import type { RawRecord } from './corpus.ts';
import { answer } from './replay-answer.ts';

/**
 * Hacker News' Firebase API over recorded items: `/maxitem.json`, `/item/<id>.json`,
 * `/updates.json`, `/newstories.json`. Item ids are the reveal order (id = index + 1), parents
 * and kids renumbered to match; a looping corpus continues with the next ids.
 */
export function createHackerNewsReplay(records: readonly RawRecord[], reveal: ReplayClock) {
  const size = records.length;
  const indexOfOriginal = new Map(records.map((item, i) => [Number(item.id), i]));
  const remap = (original: unknown, cycle: number): number | undefined => {
    const at = indexOfOriginal.get(Number(original));
    return at === undefined ? undefined : cycle * size + at + 1;
  };

  function item(id: number, wrongType: boolean): RawRecord | null {
    const index = id - 1;
    if (index < 0 || index >= reveal.revealed() || size === 0) return null;
    const cycle = Math.floor(index / size);
    const original = records[index % size] as RawRecord;
    const copy: RawRecord = { ...original, id, time: Math.floor(reveal.revealedAt(index) / 1000) };
    if ('parent' in original) {
      const parent = remap(original.parent, cycle);
      if (parent === undefined) delete copy.parent;
      else copy.parent = parent;
    }
    if (Array.isArray(original.kids)) {
      copy.kids = original.kids.flatMap((kid) => remap(kid, cycle) ?? []);
    }
    if (wrongType) copy.time = 'yesterday';
    return copy;
  }

  return {
    externalId: (index: number) => String(index + 1),
    indexOf: (externalId: string) => Number(externalId) - 1,
    /** The answer to `path` (after `/v0`). */
    answer(path: string, wrongType: boolean): ReplayAnswer {
      const count = reveal.revealed();
      if (path === '/maxitem.json') return answer(200, count);
      const wanted = /^\/item\/(\d+)\.json$/u.exec(path);
      if (wanted) return answer(200, item(Number(wanted[1]), wrongType));
      if (path === '/updates.json') {
        const ids = Array.from({ length: Math.min(20, count) }, (_, i) => count - i);
        return answer(200, { items: ids, profiles: [] });
      }
      if (path === '/newstories.json') {
        const stories: number[] = [];
        for (let id = count; id >= 1 && stories.length < 500; id--) {
          if (item(id, false)?.type === 'story') stories.push(id);
        }
        return answer(200, stories);
      }
      return answer(404, { error: 'Permission denied' });
    },
  };
}
