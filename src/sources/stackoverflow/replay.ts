import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RawRecord, ReplaySite } from '../replay-site.ts';
import {
  normaliseStackExchangeRecord,
  STACKEXCHANGE_METHODS,
  type StackExchangeMethod,
} from './normalise.ts';

/** The one site the replay serves: what `STACKEXCHANGE_SITES` names by default. */
const SITE = 'stackoverflow';
/** Ids of a later cycle of a looping replay: the example's id plus this many per cycle. */
const CYCLE = 1_000_000_000;
const ID_FIELDS = ['question_id', 'answer_id', 'post_id', 'comment_id'] as const;

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const methodOf = (record: RawRecord) => record.method as StackExchangeMethod;
const itemOf = (record: RawRecord) => record.item as RawRecord;

/** Record `index`: the example with fresh ids per cycle, created when revealed (`at`, seconds). */
function recordAt(records: readonly RawRecord[], index: number, at: number | null): RawRecord {
  const original = itemOf(records[index % records.length] as RawRecord);
  const cycle = Math.floor(index / records.length);
  const item: RawRecord = { ...original };
  if (cycle > 0) {
    for (const field of ID_FIELDS) {
      if (typeof item[field] === 'number') item[field] = (item[field] as number) + cycle * CYCLE;
    }
    if (typeof item.link === 'string' && typeof item.question_id === 'number') {
      item.link = item.link.replace(/\/questions\/\d+/u, `/questions/${item.question_id}`);
    }
  }
  if (at !== null) {
    item.creation_date = at;
    item.last_activity_date = at;
  }
  return item;
}

const externalIdAt = (records: readonly RawRecord[], index: number): string => {
  const record = records[index % records.length] as RawRecord;
  const result = normaliseStackExchangeRecord(
    SITE,
    methodOf(record),
    recordAt(records, index, null),
  );
  return result.status === 'item' ? result.item.externalId : `${SITE}/unreadable/${index}`;
};

/** The example files of `dir`: every `stackexchange-<method>-*.json`. */
function examplesIn(dir: string): RawRecord[] {
  if (!existsSync(dir)) return [];
  const records: RawRecord[] = [];
  for (const file of readdirSync(dir).sort()) {
    const method = STACKEXCHANGE_METHODS.find((name) => file.startsWith(`stackexchange-${name}-`));
    if (!method || !file.endsWith('.json')) continue;
    const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
    const items = isRecord(json) && Array.isArray(json.items) ? json.items : [];
    for (const item of items) if (isRecord(item)) records.push({ method, item });
  }
  return records;
}

/**
 * Stack Exchange's API 2.3 as its reference documents it: NOT a recording (none was made, see
 * decision 0041). Its records are the examples of `tests/fixtures/reference/stackexchange-*`,
 * built from the reference's types, and any `stackexchange-*` recording that `dir` may hold one
 * day. Questions, answers and comments form one stream in creation order; each is created when
 * revealed. `/questions`, `/answers` and `/comments` answer `sort=creation&order=asc` from
 * `min` (or `fromdate`) in pages, in the common wrapper, with a day's quota that never runs short.
 */
export const stackExchangeReplay: ReplaySite = {
  prefix: '/stackexchange',
  load(dir) {
    const records = [...examplesIn(dir), ...examplesIn(path.join(dir, '..', 'reference'))];
    const order = (record: RawRecord) => STACKEXCHANGE_METHODS.indexOf(methodOf(record));
    const created = (record: RawRecord) => Number(itemOf(record).creation_date) || 0;
    return records.sort((a, b) => created(a) - created(b) || order(a) - order(b));
  },
  keeps: (record) =>
    normaliseStackExchangeRecord(SITE, methodOf(record), itemOf(record)).status === 'item',
  externalId: externalIdAt,
  indexOf(records, externalId) {
    const match = /\/(comment\/)?(\d+)$/u.exec(externalId);
    if (!match || records.length === 0) return -1;
    const id = Number(match[2]);
    const cycle = Math.floor(id / CYCLE);
    for (let at = 0; at < records.length; at++) {
      if (externalIdAt(records, cycle * records.length + at) === externalId) {
        return cycle * records.length + at;
      }
    }
    return -1;
  },
  carriesItems: (route) => STACKEXCHANGE_METHODS.some((method) => route === `/${method}`),
  answer({ path: route, query, wrongType }, records, clock) {
    const method = STACKEXCHANGE_METHODS.find((name) => route === `/${name}`);
    const wrapper = (items: RawRecord[], hasMore: boolean) => ({
      items,
      has_more: hasMore,
      quota_max: 10_000,
      quota_remaining: 10_000 - 1 - (served++ % 1000),
    });
    if (!method) {
      return {
        status: 400,
        body: {
          error_id: 404,
          error_message: 'no method found with this name',
          error_name: 'no_method',
        },
      };
    }
    if (query.get('site') !== SITE || records.length === 0)
      return { status: 200, body: wrapper([], false) };
    const visible = clock.revealed();
    const second = (index: number) => Math.floor(clock.revealedAt(index) / 1000);
    const min = Number(query.get('min') ?? query.get('fromdate') ?? 0) || 0;
    const pageSize = Math.min(100, Math.max(1, Number(query.get('pagesize')) || 30));
    const page = Math.max(1, Number(query.get('page')) || 1);
    // Reveal times only grow: the first record of `min`'s second, by bisection.
    let low = 0;
    let high = visible;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (second(middle) < min) low = middle + 1;
      else high = middle;
    }
    const skip = (page - 1) * pageSize;
    const items: RawRecord[] = [];
    let matched = 0;
    let hasMore = false;
    for (let index = low; index < visible; index++) {
      if (methodOf(records[index % records.length] as RawRecord) !== method) continue;
      if (matched++ < skip) continue;
      if (items.length === pageSize) {
        hasMore = true;
        break;
      }
      const item = recordAt(records, index, second(index));
      items.push(wrongType && items.length === 0 ? { ...item, creation_date: 'not a date' } : item);
    }
    return { status: 200, body: wrapper(items, hasMore) };
  },
  settings: (url) => ({ STACKEXCHANGE_API_URL: url, STACKEXCHANGE_SITES: SITE }),
};

/** Requests answered, for the wrapper's `quota_remaining`. */
let served = 0;
