import path from 'node:path';
import { loadReplayCorpus, type RawRecord, type ReplayCorpus } from '../../src/replay/corpus.ts';
import type { ReplayServer, ReplayStream } from '../../src/replay/replay-server.ts';
import { normaliseHackerNewsItem } from '../../src/sources/hacker-news/normalise.ts';
import {
  normaliseLobstersComment,
  normaliseLobstersStory,
} from '../../src/sources/lobsters/normalise.ts';
import type { NormalisedItem } from '../../src/sources/normalised-item.ts';
import { normaliseRedditThing } from '../../src/sources/reddit/normalise.ts';
import { REPLAY_SITES } from '../../src/sources/registry.ts';

export const RECORDED_DIR = path.join(import.meta.dirname, '..', 'fixtures', 'recorded');

let cached: ReplayCorpus | null = null;
/** The recorded corpus (tests/fixtures/recorded), read once per test file. */
export function recordedCorpus(): ReplayCorpus {
  cached ??= loadReplayCorpus(RECORDED_DIR);
  return cached;
}

/** A recorded Hacker News item (hn-items.jsonl) as its connector normalises it. */
export function recordedHackerNewsItem(id: number): NormalisedItem {
  const result = normaliseHackerNewsItem(
    recordedCorpus().hackernews.find((item) => item.id === id),
  );
  if (result.status !== 'item') throw new Error(`recorded item ${id} is not an item`);
  return result.item;
}

/**
 * The external ids a connector must store for the first `count` records of a stream: the
 * records the normalisers keep (deleted, dead and unsupported ones are skipped), judged on the
 * recordings themselves, independently of the replay's HTTP path.
 */
export function expectedExternalIds(
  replay: ReplayServer,
  corpus: ReplayCorpus,
  stream: ReplayStream,
  count: number,
): string[] {
  const ids = replay.externalIds(stream, count);
  const lobsters = [
    ...corpus.lobstersStories.map((record) => ({ kind: 'story' as const, record })),
    ...corpus.lobstersComments.map((record) => ({ kind: 'comment' as const, record })),
  ].sort(
    (a, b) => Date.parse(String(a.record.created_at)) - Date.parse(String(b.record.created_at)),
  );
  const site = REPLAY_SITES.find((entry) => entry.name === stream);
  return ids.filter((_, index) => {
    if (site) {
      const records = corpus.sites[stream] ?? [];
      return site.replay.keeps(records[index % records.length] as RawRecord);
    }
    if (stream === 'hackernews') {
      return (
        normaliseHackerNewsItem(corpus.hackernews[index % corpus.hackernews.length]).status ===
        'item'
      );
    }
    if (stream === 'reddit')
      return normaliseRedditThing(corpus.reddit[index % corpus.reddit.length]).status === 'item';
    const entry = lobsters[index % lobsters.length] as {
      kind: 'story' | 'comment';
      record: RawRecord;
    };
    return (
      (entry.kind === 'story'
        ? normaliseLobstersStory(entry.record)
        : normaliseLobstersComment(entry.record, null)
      ).status === 'item'
    );
  });
}

/** Total records of a stream in the corpus. */
export function streamSize(corpus: ReplayCorpus, stream: ReplayStream): number {
  if (stream === 'hackernews') return corpus.hackernews.length;
  if (stream === 'reddit') return corpus.reddit.length;
  if (stream !== 'lobsters') return corpus.sites[stream]?.length ?? 0;
  return corpus.lobstersStories.length + corpus.lobstersComments.length;
}
