import type { ItemRow } from '../db/schema/items.ts';
import type { MatchRow } from '../db/schema/matches.ts';
import type { Highlight } from '../matcher/monitor-index.ts';
import { createItemSnippet } from '../matcher/snippet.ts';
import { HIT_FIELDS } from '../shared/match.ts';
import type { ItemSignals } from '../shared/signals.ts';

/**
 * The item a match is made from: a stored item's fields (its id and fetch time aside), with its
 * signals computed (`withSignalsOnRead`: a stored item may not have them yet).
 */
export type MatchedItem = ItemSignals &
  Pick<
    ItemRow,
    | 'source'
    | 'externalId'
    | 'kind'
    | 'title'
    | 'threadTitle'
    | 'threadId'
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
  | 'titleHighlights'
  | 'threadTitle'
  | 'threadId'
  | 'snippet'
  | 'highlights'
  | 'hitFields'
  | 'url'
  | 'permalink'
  | 'author'
  | 'community'
  | 'intents'
  | 'sentiment'
  | 'language'
  | 'itemCreatedAt'
>;

const pair = (range: { start: number; end: number }): [number, number] => [range.start, range.end];

/**
 * The match of an item for a monitor whose query hit it at `highlights` (the matcher's
 * `MonitorIndex.match`): the item's fields, the hits in its title (offsets into the title as
 * stored), the snippet around the first hit with the hits inside it, and the fields hit. The
 * pipeline stores this; the preview and the sample alerts show it.
 */
export function matchOfItem(item: MatchedItem, highlights: readonly Highlight[]): ItemMatch {
  const snippet = createItemSnippet(item, highlights);
  return {
    source: item.source,
    externalId: item.externalId,
    kind: item.kind,
    title: item.title,
    titleHighlights: highlights.filter((hit) => hit.field === 'title').map(pair),
    threadTitle: item.threadTitle,
    threadId: item.threadId,
    snippet: snippet.text,
    highlights: snippet.highlights.map(pair),
    hitFields: HIT_FIELDS.filter((field) => highlights.some((hit) => hit.field === field)),
    url: item.url,
    permalink: item.permalink,
    author: item.author,
    community: item.community,
    intents: [...item.intents],
    sentiment: item.sentiment,
    language: item.language,
    itemCreatedAt: item.createdAt,
  };
}
