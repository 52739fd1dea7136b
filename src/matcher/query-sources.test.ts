import { describe, expect, it } from 'vitest';
import { createMonitorIndex } from './monitor-index.ts';
import { SOURCES } from './query-ast.ts';
import { parseQuery } from './query-parser.ts';
import { queryRepositories, querySources } from './query-sources.ts';

describe('querySources', () => {
  it.each([
    [
      'rust',
      [
        'hackernews',
        'reddit',
        'lobsters',
        'devto',
        'mastodon',
        'github',
        'feeds',
        'bluesky',
        'stackoverflow',
      ],
    ],
    ['rust site:hackernews', ['hackernews']],
    ['site:hackernews', ['hackernews']],
    // A DEV or Stack Overflow tag is a community too.
    ['r/rust release', ['reddit', 'devto', 'stackoverflow']],
    ['feed:"Rust Blog" release', ['feeds']],
    ['repo:facebook/react hooks', ['github']],
    ['repo:facebook/react OR r/reactjs', ['reddit', 'devto', 'github', 'stackoverflow']],
    ['r/rust site:reddit', ['reddit']],
    ['subreddit:rust OR site:lobsters', ['reddit', 'lobsters', 'devto', 'stackoverflow']],
    [
      'rust -site:reddit',
      [
        'hackernews',
        'lobsters',
        'devto',
        'mastodon',
        'github',
        'feeds',
        'bluesky',
        'stackoverflow',
      ],
    ],
    [
      'rust -(site:reddit OR site:lobsters OR site:devto OR site:feeds)',
      ['hackernews', 'mastodon', 'github', 'bluesky', 'stackoverflow'],
    ],
    ['site:reddit site:lobsters rust', []],
    [
      'rust -subreddit:games',
      [
        'hackernews',
        'reddit',
        'lobsters',
        'devto',
        'mastodon',
        'github',
        'feeds',
        'bluesky',
        'stackoverflow',
      ],
    ],
    [
      'rust -author:bot',
      [
        'hackernews',
        'reddit',
        'lobsters',
        'devto',
        'mastodon',
        'github',
        'feeds',
        'bluesky',
        'stackoverflow',
      ],
    ],
    ['(site:reddit OR site:hackernews) -site:reddit rust', ['hackernews']],
    ['-(-site:lobsters) rust', ['lobsters']],
    ['title:rust site:lobsters', ['lobsters']],
  ])('%s → %j', (query, sources) => {
    expect(querySources(parseQuery(query))).toEqual(sources);
  });

  // What it promises: no site left out that the query can match. Checked against the index
  // itself, with an item from every site that holds the words and sits in the community.
  it.each([
    'rust',
    'rust site:hackernews',
    'r/rust rust',
    'rust -site:reddit',
    'rust -(site:reddit OR -site:lobsters)',
    'rust OR (site:lobsters -rust)',
  ])('never leaves out a site %s matches', (query) => {
    const index = createMonitorIndex();
    index.add('m', query);
    const matched = SOURCES.filter(
      (source) =>
        index.match({
          source,
          title: 'rust news',
          body: 'rust',
          url: null,
          author: 'someone',
          community: source === 'reddit' ? 'rust' : null,
        }).length > 0,
    );
    for (const source of matched) expect(querySources(parseQuery(query))).toContain(source);
  });
});

describe('queryRepositories', () => {
  it.each([
    ['rust', []],
    ['repo:Facebook/React hooks', ['facebook/react']],
    ['repo:a/b OR (repo:c/d bug) OR repo:a/b', ['a/b', 'c/d']],
    ['bug -repo:a/b', []],
  ])('%s → %j', (query, names) => {
    expect(queryRepositories(parseQuery(query))).toEqual(names);
  });
});
