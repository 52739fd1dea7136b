import { describe, expect, it } from 'vitest';
import { createMonitorIndex, type MatchableItem } from './monitor-index.ts';
import { parseQuery, QuerySyntaxError } from './query-parser.ts';
import { querySources } from './query-sources.ts';

const matches = (query: string, item: MatchableItem): boolean => {
  const index = createMonitorIndex();
  index.add('m', query);
  return index.match(item).length === 1;
};

const feedItem = (community: string, title = 'Release notes'): MatchableItem => ({
  source: 'feeds',
  title,
  body: '',
  community,
});

describe('feed:"<name>" (docs/query-language.md)', () => {
  it.each<[string, MatchableItem, boolean]>([
    ['feed:"Rust Blog" release', feedItem('Rust Blog'), true],
    ['feed:"rust blog" release', feedItem('Rust Blog'), true],
    ['feed:“Rust Blog” release', feedItem('Rust Blog'), true],
    ['feed:"Rust Blog" release', feedItem('Go Blog'), false],
    ['feed:inessential.com release', feedItem('inessential.com'), true],
    // The same community on another site is not a feed.
    ['feed:"Rust Blog" release', { ...feedItem('Rust Blog'), source: 'reddit' }, false],
    ['release -feed:"Rust Blog"', feedItem('Rust Blog'), false],
    ['release -feed:"Rust Blog"', feedItem('Go Blog'), true],
    ['site:feeds release', feedItem('Go Blog'), true],
    ['site:rss release', feedItem('Go Blog'), true],
  ])('%s', (query, item, expected) => {
    expect(matches(query, item)).toBe(expected);
  });

  it('is site:feeds with the name as the community; it watches only feeds', () => {
    expect(parseQuery('feed:"My Blog"')).toEqual({
      type: 'and',
      children: [
        { type: 'site', source: 'feeds' },
        { type: 'community', name: 'my blog', feed: true },
      ],
    });
    expect(querySources(parseQuery('feed:"My Blog" rust'))).toEqual(['feeds']);
  });

  it.each([
    ['feed:', 'Write a feed’s name right after feed:, like feed:"My blog".'],
    ['feed:"My blog', 'Close the quote after the feed’s name, like feed:"My blog".'],
    ['feed:""', 'Write a feed’s name right after feed:, like feed:"My blog".'],
  ])('%s is refused in words', (query, message) => {
    expect(() => parseQuery(query)).toThrow(QuerySyntaxError);
    expect(() => parseQuery(query)).toThrow(message);
  });
});
