import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RawRecord, ReplaySite } from '../replay-site.ts';
import { articleExternalId, normaliseDevtoArticle } from './normalise.ts';

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const publishedAt = (record: RawRecord) => Date.parse(String(record.published_at ?? '')) || 0;

/**
 * DEV's API as recorded (`devto-*.json`): `/api/articles/latest` newest first, in pages, and
 * `/api/articles/<id>`. Articles are numbered 1, 2, … in reveal order and published when
 * revealed. No comment was recorded, so `/api/comments?a_id=` answers an empty thread and every
 * article says `comments_count: 0`.
 */
export const devtoReplay: ReplaySite = {
  prefix: '/devto',
  load(dir) {
    const byId = new Map<string, RawRecord>();
    for (const file of readdirSync(dir).sort()) {
      if (!/^devto-.*\.json$/u.test(file)) continue;
      const json = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as unknown;
      for (const record of Array.isArray(json) ? json : [json]) {
        // The list's shape is what /articles/latest answers: it wins over a single article's.
        if (isRecord(record) && record.id !== undefined) {
          const id = String(record.id);
          if (!byId.has(id) || Array.isArray(record.tag_list)) byId.set(id, record);
        }
      }
    }
    return [...byId.values()].sort((a, b) => publishedAt(a) - publishedAt(b));
  },
  keeps: (record) => normaliseDevtoArticle(record).status === 'item',
  externalId: (_records, index) => articleExternalId(index + 1),
  indexOf: (_records, externalId) => (/^\d+$/u.test(externalId) ? Number(externalId) - 1 : -1),
  carriesItems: (route) => route.startsWith('/api/articles'),
  answer({ path: route, query, wrongType }, records, clock) {
    const article = (index: number, broken: boolean): RawRecord => {
      const original = records[index % records.length] as RawRecord;
      const cycle = Math.floor(index / records.length);
      const at = new Date(clock.revealedAt(index)).toISOString();
      const url = cycle === 0 ? String(original.url) : `${String(original.url)}-${cycle}`;
      return {
        ...original,
        id: index + 1,
        url,
        canonical_url: url,
        published_at: broken ? 42 : at,
        published_timestamp: at.replace(/\.\d{3}Z$/u, 'Z'),
        comments_count: 0,
      };
    };
    const visible = records.length === 0 ? 0 : clock.revealed();
    if (route === '/api/articles/latest') {
      const perPage = Math.min(1000, Math.max(1, Number(query.get('per_page')) || 30));
      const page = Math.max(1, Number(query.get('page')) || 1);
      const newest = visible - 1 - (page - 1) * perPage;
      const body: RawRecord[] = [];
      for (let index = newest; index >= 0 && body.length < perPage; index--) {
        body.push(article(index, wrongType && body.length === 0));
      }
      return { status: 200, body };
    }
    const single = /^\/api\/articles\/(\d+)$/u.exec(route);
    if (single) {
      const index = Number(single[1]) - 1;
      return index < visible
        ? { status: 200, body: article(index, false) }
        : { status: 404, body: { error: 'not found', status: 404 } };
    }
    if (route === '/api/comments') return { status: 200, body: [] };
    return { status: 404, body: { error: 'not found', status: 404 } };
  },
  settings: (url) => ({ DEVTO_API_URL: `${url}/api` }),
};
