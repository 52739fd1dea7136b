import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { MatchEvents } from '../../src/matches/match-events.ts';
import { loadMonitorIndex } from '../../src/pipeline/load-monitor-index.ts';
import { matchNewItems } from '../../src/pipeline/match-new-items.ts';
import { storeItems } from '../../src/pipeline/store-items.ts';
import type { SourceName } from '../../src/shared/sources.ts';
import type { NormalisedItem } from '../../src/sources/normalised-item.ts';

let sequence = 0;

/** A normalised item with sensible defaults: a Hacker News story posted an hour ago. */
export function testItem(overrides: Partial<NormalisedItem> = {}): NormalisedItem {
  sequence += 1;
  const source: SourceName = overrides.source ?? 'hackernews';
  const externalId = overrides.externalId ?? `${Date.now().toString(36)}-${sequence}`;
  return {
    source,
    externalId,
    kind: 'post',
    title: 'A story',
    body: '',
    url: null,
    permalink:
      source === 'reddit'
        ? `https://www.reddit.com/r/test/comments/${externalId}/`
        : source === 'lobsters'
          ? `https://lobste.rs/s/${externalId}`
          : `https://news.ycombinator.com/item?id=${externalId}`,
    author: 'someone',
    community: source === 'reddit' ? 'test' : null,
    parentExternalId: null,
    threadTitle: null,
    createdAt: new Date(Date.now() - 3_600_000).toISOString(),
    ...overrides,
  };
}

/**
 * Brings items in through the pipeline's entry point, exactly as the connectors do: store the
 * batch, then match every new item against the active monitors and store the matches,
 * announced on `events` after the commit. Never rows by hand.
 */
export async function deliverItems(
  ctx: { database: DatabaseHandle; matchEvents: MatchEvents },
  items: readonly NormalisedItem[],
  options: { matchesPerHour?: number } = {},
): Promise<{ matches: number }> {
  const db = ctx.database.db;
  const bySource = new Map<SourceName, NormalisedItem[]>();
  for (const item of items) bySource.set(item.source, [...(bySource.get(item.source) ?? []), item]);
  for (const [source, batch] of bySource) await storeItems(db, { source, items: batch });
  const index = await loadMonitorIndex(db);
  let matches = 0;
  for (;;) {
    const result = await matchNewItems(
      { db, index, events: ctx.matchEvents, ...options },
      { limit: 2000 },
    );
    matches += result.matches;
    if (!result.more) return { matches };
  }
}

/**
 * The recorded items of tests/fixtures/items (real Hacker News, Reddit and Lobsters posts and
 * comments), the newest `count` of them moved into the last `days` days, evenly spread.
 */
export function recordedItems(count: number, days = 6): NormalisedItem[] {
  const lines = readFileSync(RECORDED_ITEMS, 'utf8').split('\n').filter(Boolean);
  const now = Date.now();
  return lines.slice(0, count).map((line, i) => {
    const item = JSON.parse(line) as NormalisedItem & { id?: string };
    const { id: _id, ...rest } = item;
    return {
      ...rest,
      createdAt: new Date(now - ((i + 0.5) / count) * days * 86_400_000).toISOString(),
    };
  });
}

const RECORDED_ITEMS = path.join(import.meta.dirname, '..', 'fixtures', 'items', 'items.jsonl');
