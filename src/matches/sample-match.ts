import { createMonitorIndex, type Highlight } from '../matcher/monitor-index.ts';
import type { Match } from '../shared/match.ts';
import { type MatchedItem, matchOfItem } from './match-of-item.ts';
import { unratedRelevance } from './monitor-relevance.ts';
import { toMatch } from './to-match.ts';

/**
 * A match made for show (the test email, the webhook test), the way real ones are made: the
 * item goes through the matcher with the monitor's query, and the match is what the pipeline
 * would store of it, mapped as stored matches are. A query that does not match the sample item
 * (it excludes a word of it, or asks for another site) gives a match without highlights.
 */
export function sampleMatch(input: {
  readonly query: string;
  readonly monitorId: string;
  readonly title: string;
  readonly body: string;
  readonly now: Date;
}): Match {
  const item: MatchedItem = {
    source: 'hackernews',
    externalId: 'sample',
    kind: 'post',
    title: input.title,
    threadTitle: null,
    threadId: 'sample',
    body: input.body,
    url: null,
    permalink: 'https://news.ycombinator.com/',
    author: 'earshot',
    community: null,
    intents: [],
    sentiment: null,
    language: null,
    createdAt: input.now,
  };
  const match = matchOfItem(item, hitsOf(input.query, item));
  return toMatch({
    ...match,
    ...unratedRelevance(match),
    id: 0,
    monitorId: input.monitorId,
    matchedAt: input.now,
    readAt: null,
    signalsCorrected: false,
  });
}

function hitsOf(query: string, item: MatchedItem): readonly Highlight[] {
  const index = createMonitorIndex();
  try {
    index.add('sample', query);
  } catch {
    // A stored query the parser no longer accepts: the sample shows no hit.
    return [];
  }
  return index.match(item)[0]?.highlights ?? [];
}
