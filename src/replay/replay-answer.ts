import type { ReplayAnswer } from '../sources/replay-site.ts';
import type { RawRecord } from './corpus.ts';

export const answer = (
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): ReplayAnswer => ({ status, body, headers });

export function listing(children: RawRecord[]): RawRecord {
  return {
    kind: 'Listing',
    data: {
      after: null,
      dist: children.length,
      modhash: '',
      geo_filter: '',
      children,
      before: null,
    },
  };
}
