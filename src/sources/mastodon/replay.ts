import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RawRecord, ReplayClock, ReplaySite } from '../replay-site.ts';
import { normaliseMastodonStatus } from './normalise.ts';

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const createdAt = (record: RawRecord) => Date.parse(String(record.created_at ?? '')) || 0;

/** The statuses of one recorded file: a timeline (a list), a WebSocket message or SSE text. */
function statusesOf(file: string, text: string): RawRecord[] {
  if (file.endsWith('.txt')) {
    // Server-sent events: the `update` events' data lines are statuses; deletes and edits are not.
    const statuses: RawRecord[] = [];
    for (const block of text.split(/\r?\n\r?\n/u)) {
      const lines = block.split(/\r?\n/u);
      if (!lines.includes('event: update')) continue;
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      const status = JSON.parse(data) as unknown;
      if (isRecord(status)) statuses.push(status);
    }
    return statuses;
  }
  const json = JSON.parse(text) as unknown;
  if (Array.isArray(json)) return json.filter(isRecord);
  // A streaming message: `{ event: 'update', payload: '<the status as JSON>' }`.
  if (isRecord(json) && json.event === 'update' && typeof json.payload === 'string') {
    const status = JSON.parse(json.payload) as unknown;
    return isRecord(status) ? [status] : [];
  }
  return [];
}

/** Status `index`'s uri: the recorded one, marked with its cycle when the replay loops. */
function uriOf(records: readonly RawRecord[], index: number): string {
  const original = records[index % records.length] as RawRecord;
  const cycle = Math.floor(index / records.length);
  return cycle === 0 ? String(original.uri) : `${String(original.uri)}#${cycle}`;
}

/** Status `index` as the instance serves it: numbered 1, 2, … in reveal order, created when revealed. */
function statusAt(
  records: readonly RawRecord[],
  index: number,
  clock: ReplayClock,
  broken: boolean,
): RawRecord {
  return {
    ...(records[index % records.length] as RawRecord),
    id: String(index + 1),
    uri: uriOf(records, index),
    created_at: broken ? 42 : new Date(clock.revealedAt(index)).toISOString(),
  };
}

/**
 * Mastodon's public timeline as recorded (`mastodon-*`: the 2016 and 2017 timelines and the 2022
 * streaming examples), oldest first. Statuses are numbered 1, 2, … in reveal order (the ids of
 * one instance) and created when revealed; `min_id`, `since_id`, `max_id` and `limit` work as
 * on an instance, newest first. The streaming API pushes each status as it is revealed.
 */
export const mastodonReplay: ReplaySite = {
  prefix: '/mastodon',
  load(dir) {
    const byUri = new Map<string, RawRecord>();
    for (const file of readdirSync(dir).sort()) {
      if (!/^mastodon-.*\.(json|txt)$/u.test(file)) continue;
      for (const status of statusesOf(file, readFileSync(path.join(dir, file), 'utf8'))) {
        if (typeof status.uri === 'string' && !byUri.has(status.uri)) byUri.set(status.uri, status);
      }
    }
    return [...byUri.values()].sort((a, b) => createdAt(a) - createdAt(b));
  },
  keeps: (record) => normaliseMastodonStatus('https://replay.invalid', record).status === 'item',
  externalId: (records, index) => uriOf(records, index),
  indexOf(records, externalId) {
    const [uri, cycleText] = externalId.split('#');
    const cycle = cycleText === undefined ? 0 : Number(cycleText);
    const at = records.findIndex((record) => record.uri === uri);
    return at < 0 || !Number.isInteger(cycle) ? -1 : cycle * records.length + at;
  },
  carriesItems: (route) => route === '/api/v1/timelines/public',
  answer({ path: route, query, wrongType }, records, clock) {
    if (route !== '/api/v1/timelines/public') {
      return { status: 404, body: { error: 'Record not found' } };
    }
    const status = (index: number, broken: boolean) => statusAt(records, index, clock, broken);
    const visible = records.length === 0 ? 0 : clock.revealed();
    const limit = Math.min(40, Math.max(1, Number(query.get('limit')) || 20));
    // Ids are 1-based: index = id - 1.
    const after = (name: string) => (query.has(name) ? Number(query.get(name)) : null);
    const minId = after('min_id');
    const sinceId = after('since_id');
    const maxId = after('max_id');
    let newest = maxId === null ? visible - 1 : Math.min(visible - 1, maxId - 2);
    let oldest = Math.max(sinceId ?? 0, 0);
    if (minId !== null) {
      // The page just after min_id, given newest first.
      oldest = minId;
      newest = Math.min(newest, minId + limit - 1);
    }
    const body: RawRecord[] = [];
    for (let index = newest; index >= oldest && body.length < limit; index--) {
      body.push(status(index, wrongType && body.length === 0));
    }
    return { status: 200, body };
  },
  // The streaming API (`/api/v1/streaming/public/local`, server-sent events, as recorded in
  // 2022): each status revealed after the stream opens, as an `update` event.
  eventStream: {
    start: (request, records, clock) =>
      request.path === '/api/v1/streaming/public/local' && records.length > 0
        ? clock.revealed()
        : null,
    event: (records, index, clock) =>
      `event: update\ndata: ${JSON.stringify(statusAt(records, index, clock, false))}\n\n`,
  },
  settings: (url) => ({ MASTODON_INSTANCES: url }),
};
