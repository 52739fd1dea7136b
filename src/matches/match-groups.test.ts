import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Match } from '../shared/match.ts';
import { groupMatchesByItem } from '../shared/match-groups.ts';
import { describeHitFields, matchHeadline } from '../shared/match-view.ts';

/** Recorded Hacker News items (tests/fixtures/recorded/hn-items.jsonl), by id. */
const recorded = new Map(
  readFileSync(new URL('../../tests/fixtures/recorded/hn-items.jsonl', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { id: number; title?: string; by?: string; url?: string })
    .map((item) => [item.id, item]),
);
const story = recorded.get(21500569);
const title = story?.title ?? '';
const chile = title.indexOf('Chile');
const url = story?.url ?? '';
const urlHit: [number, number] = [url.indexOf('chile'), url.indexOf('chile') + 5];

/** A match of the recorded story "‘It’s Mutilation’: The Police in Chile Are Blinding Protesters". */
function matchOfStory(fields: Partial<Match>): Match {
  return {
    id: '1',
    monitorId: 'm1',
    source: 'hackernews',
    kind: 'post',
    title,
    titleHighlights: [],
    threadTitle: null,
    threadId: null,
    intents: [],
    sentiment: null,
    language: null,
    signalsCorrected: false,
    snippet: '',
    highlights: [],
    hitFields: [],
    url: story?.url ?? null,
    permalink: 'https://news.ycombinator.com/item?id=21500569',
    author: story?.by ?? null,
    community: null,
    itemCreatedAt: '2019-11-10T22:23:02.000Z',
    matchedAt: '2019-11-10T22:23:05.000Z',
    read: false,
    rating: null,
    relevance: null,
    relevanceReasons: [],
    ...fields,
  };
}

describe('groupMatchesByItem', () => {
  it('makes one group of an item caught by two monitors, naming both, read only when both are', () => {
    const police = matchOfStory({
      id: '7',
      monitorId: 'police',
      titleHighlights: [[title.indexOf('Police'), title.indexOf('Police') + 6]],
      hitFields: ['title'],
    });
    const chileHit = matchOfStory({
      id: '6',
      monitorId: 'chile',
      titleHighlights: [[chile, chile + 5]],
      hitFields: ['title', 'url'],
      snippet: url,
      highlights: [urlHit],
      read: true,
    });
    const other = matchOfStory({
      id: '5',
      monitorId: 'chile',
      permalink: 'https://news.ycombinator.com/item?id=21500829',
      kind: 'comment',
      title: null,
    });
    const groups = groupMatchesByItem([police, chileHit, other]);
    expect(groups).toHaveLength(2);
    expect(groups[0]).toMatchObject({
      match: police,
      monitorIds: ['police', 'chile'],
      read: false,
      hitFields: ['title', 'url'],
      titleHighlights: [police.titleHighlights[0], chileHit.titleHighlights[0]],
      // The police match has no snippet (a title alone); the chile one's URL is shown.
      snippet: url,
      highlights: [urlHit],
    });
    expect(groups[0]?.matches.map((match) => match.id)).toEqual(['7', '6']);
    expect(groups[1]?.monitorIds).toEqual(['chile']);
    expect(groupMatchesByItem([{ ...police, read: true }, chileHit])[0]?.read).toBe(true);
  });

  it('keeps the same permalink on two sites apart', () => {
    const hn = matchOfStory({});
    expect(groupMatchesByItem([hn, { ...hn, source: 'lobsters' }])).toHaveLength(2);
  });
});

describe('matchHeadline', () => {
  it('names a post by its title with its hits, a comment by its thread', () => {
    expect(matchHeadline(matchOfStory({ titleHighlights: [[chile, chile + 5]] }))).toEqual({
      text: title,
      highlights: [[chile, chile + 5]],
    });
    const comment = { kind: 'comment' as const, title: null, titleHighlights: [] };
    expect(matchHeadline({ ...comment, threadTitle: title }).text).toBe(`on: ${title}`);
    expect(matchHeadline({ ...comment, threadTitle: null }).text).toBe('A comment');
  });
});

describe('describeHitFields', () => {
  it('says where the terms hit', () => {
    expect(describeHitFields(['title'])).toBe('in the title');
    expect(describeHitFields(['title', 'url'])).toBe('in the title and URL');
    expect(describeHitFields(['title', 'body', 'url'])).toBe('in the title, body and URL');
    expect(describeHitFields([])).toBeNull();
  });
});
