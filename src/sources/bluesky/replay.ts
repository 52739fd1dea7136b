import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RawRecord, ReplayClock, ReplaySite } from '../replay-site.ts';
import { normaliseJetstreamEvent, POST_COLLECTION, postUri } from './normalise.ts';

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const commitOf = (record: RawRecord) => (isRecord(record.commit) ? record.commit : null);

/** Record `index`'s record key: the recorded one, marked with its cycle when the replay loops. */
function rkeyOf(records: readonly RawRecord[], index: number): string {
  const original = records[index % records.length] as RawRecord;
  const cycle = Math.floor(index / records.length);
  const rkey = String(commitOf(original)?.rkey ?? '');
  return cycle === 0 ? rkey : `${rkey}-${cycle}`;
}

/** Jetstream's cursor of record `index`: the moment it was revealed, in µs. */
const timeUsOf = (clock: ReplayClock, index: number) => Math.floor(clock.revealedAt(index) * 1000);

/**
 * Bluesky's Jetstream as recorded (`bluesky-jetstream-v1-*.jsonl`), served over a WebSocket at
 * `/bluesky/subscribe` as a subscription to `app.bsky.feed.post` gets it: the post commits
 * (creates and deletes) and the `identity` and `account` events Jetstream always sends, one
 * message each in reveal order, `time_us` and the post's `createdAt` the moment of reveal (the
 * recordings are from 2026: a store keeping recent items would drop them). A connection starts at the first
 * event at or after `cursor` (none: live, from now), as Jetstream does.
 */
export const blueskyReplay: ReplaySite = {
  prefix: '/bluesky',
  load(dir) {
    const events: RawRecord[] = [];
    for (const file of readdirSync(dir).sort()) {
      if (!/^bluesky-jetstream-v1-.*\.jsonl$/u.test(file)) continue;
      for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const event = JSON.parse(line) as unknown;
        if (!isRecord(event)) continue;
        const commit = commitOf(event);
        if (commit ? commit.collection === POST_COLLECTION : event.kind !== 'commit') {
          events.push(event);
        }
      }
    }
    return events;
  },
  keeps: (record) => normaliseJetstreamEvent(record).status === 'item',
  externalId: (records, index) =>
    postUri(String((records[index % records.length] as RawRecord).did), rkeyOf(records, index)),
  indexOf(records, externalId) {
    const match = /^at:\/\/([^/]+)\/app\.bsky\.feed\.post\/([^/-]+)(?:-(\d+))?$/u.exec(externalId);
    if (!match) return -1;
    const [, did, rkey, cycleText] = match;
    const at = records.findIndex((record) => record.did === did && commitOf(record)?.rkey === rkey);
    return at < 0 ? -1 : Number(cycleText ?? 0) * records.length + at;
  },
  carriesItems: (route) => route === '/subscribe',
  answer: () => ({
    status: 426,
    body: { error: 'UpgradeRequired', message: 'subscribe with a WebSocket' },
  }),
  websocket: {
    start({ path: route, query }, records, clock) {
      if (route !== '/subscribe' || records.length === 0) return null;
      const revealed = clock.revealed();
      const cursor = Number(query.get('cursor'));
      if (!query.has('cursor') || !Number.isFinite(cursor)) return revealed;
      let index = revealed;
      while (index > 0 && timeUsOf(clock, index - 1) >= cursor) index--;
      return index;
    },
    message(records, index, clock) {
      const event = records[index % records.length] as RawRecord;
      const commit = commitOf(event);
      const record = commit && isRecord(commit.record) ? commit.record : null;
      const createdAt = new Date(clock.revealedAt(index)).toISOString();
      return JSON.stringify({
        ...event,
        time_us: timeUsOf(clock, index),
        ...(commit
          ? {
              commit: {
                ...commit,
                rkey: rkeyOf(records, index),
                ...(record ? { record: { ...record, createdAt } } : {}),
              },
            }
          : {}),
      });
    },
  },
  settings: (url) => ({ BLUESKY_JETSTREAM_URL: `${url.replace(/^http/u, 'ws')}/subscribe` }),
};
