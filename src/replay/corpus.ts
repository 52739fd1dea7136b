import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SourceName } from '../shared/sources.ts';
import { REPLAY_SITES } from '../sources/registry.ts';

/** A raw record of a site's API, exactly as recorded (JSON objects). */
import type { RawRecord } from '../sources/replay-site.ts';

export type { RawRecord };

/**
 * The recorded answers of the three sites, as streams of records in the order the replay
 * reveals them (oldest first): Hacker News items, Reddit things (posts and comments), Lobsters
 * stories and comments. Duplicates across recordings are kept once.
 */
export type ReplayCorpus = {
  readonly hackernews: readonly RawRecord[];
  /** Reddit things `{ kind: 't1' | 't3', data }`. */
  readonly reddit: readonly RawRecord[];
  readonly lobstersStories: readonly RawRecord[];
  readonly lobstersComments: readonly RawRecord[];
  /** The records of the sites whose replay lives in their folder (src/sources/<site>/replay.ts). */
  readonly sites: Readonly<Partial<Record<SourceName, readonly RawRecord[]>>>;
};

const isRecord = (value: unknown): value is RawRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads every recording of `dir` (the layout of tests/fixtures/recorded, see its SOURCES.md). */
export function loadReplayCorpus(dir: string): ReplayCorpus {
  const files = readdirSync(dir).sort();
  const read = (file: string): unknown => JSON.parse(readFileSync(path.join(dir, file), 'utf8'));

  const hn = new Map<number, RawRecord>();
  for (const file of files.filter((f) => /^hn-items.*\.jsonl$/u.test(f))) {
    for (const line of readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const item = JSON.parse(line) as unknown;
      if (isRecord(item) && typeof item.id === 'number') hn.set(item.id, item);
    }
  }

  const reddit = new Map<string, RawRecord>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isRecord(node) || !isRecord(node.data)) return;
    if (node.kind === 'Listing') {
      visit(node.data.children);
      return;
    }
    if ((node.kind === 't1' || node.kind === 't3') && typeof node.data.name === 'string') {
      const { replies: _, ...data } = node.data;
      reddit.set(node.data.name, { kind: node.kind, data: { ...data, replies: '' } });
    }
    visit(node.data.replies);
  };
  for (const file of files.filter((f) => /^reddit-.*\.json$/u.test(f) && !f.includes('manifest'))) {
    visit(read(file));
  }

  const stories = new Map<string, RawRecord>();
  const comments = new Map<string, RawRecord>();
  for (const file of files.filter((f) => /^lobsters-.*\.json$/u.test(f))) {
    const json = read(file);
    for (const story of Array.isArray(json) ? json : [json]) {
      if (!isRecord(story) || typeof story.short_id !== 'string') continue;
      const { comments: storyComments, ...rest } = story;
      stories.set(story.short_id, rest);
      if (Array.isArray(storyComments)) {
        for (const comment of storyComments) {
          if (isRecord(comment) && typeof comment.short_id === 'string')
            comments.set(comment.short_id, comment);
        }
      }
    }
  }

  const createdUtc = (thing: RawRecord) =>
    isRecord(thing.data) && typeof thing.data.created_utc === 'number' ? thing.data.created_utc : 0;
  const createdAt = (record: RawRecord) => Date.parse(String(record.created_at ?? '')) || 0;
  return {
    hackernews: [...hn.values()].sort((a, b) => Number(a.id) - Number(b.id)),
    reddit: [...reddit.values()].sort((a, b) => createdUtc(a) - createdUtc(b)),
    lobstersStories: [...stories.values()].sort((a, b) => createdAt(a) - createdAt(b)),
    lobstersComments: [...comments.values()].sort((a, b) => createdAt(a) - createdAt(b)),
    sites: Object.fromEntries(REPLAY_SITES.map(({ name, replay }) => [name, replay.load(dir)])),
  };
}
