import type { ItemRow } from '../db/schema/items.ts';
import type { MatchRow } from '../db/schema/matches.ts';
import type { Highlight } from '../matcher/monitor-index.ts';
import { createItemSnippet } from '../matcher/snippet.ts';

/** The item a match is made from: a stored item's fields (its id and fetch time aside). */
export type MatchedItem = Pick<
  ItemRow,
  | 'source'
  | 'externalId'
  | 'kind'
  | 'title'
  | 'body'
  | 'url'
  | 'permalink'
  | 'author'
  | 'community'
  | 'createdAt'
>;

/** What a match keeps of its item and of the monitor's hits in it. */
export type ItemMatch = Pick<
  MatchRow,
  | 'source'
  | 'externalId'
  | 'kind'
  | 'title'
  | 'snippet'
  | 'highlights'
  | 'url'
  | 'permalink'
  | 'author'
  | 'community'
  | 'itemCreatedAt'
>;

/**
 * The match of an item for a monitor whose query hit it at `highlights` (the matcher's
 * `MonitorIndex.match`): the item's fields, and the snippet around the first hit with the hits
 * inside it. The pipeline stores this; the preview and the sample alerts show it.
 */
export function matchOfItem(item: MatchedItem, highlights: readonly Highlight[]): ItemMatch {
  const snippet = createItemSnippet(item, highlights);
  return {
    source: item.source,
    externalId: item.externalId,
    kind: item.kind,
    title: item.title,
    snippet: snippet.text,
    highlights: snippet.highlights.map((range): [number, number] => [range.start, range.end]),
    url: item.url,
    permalink: item.permalink,
    author: item.author,
    community: item.community,
    itemCreatedAt: item.createdAt,
  };
}
