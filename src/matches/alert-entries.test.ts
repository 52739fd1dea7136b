import { describe, expect, it } from 'vitest';
import {
  byMonitor,
  describeAlsoOn,
  entryHeadline,
  groupAlertEntries,
  linkKey,
} from '../shared/alert-entries.ts';
import type { Match } from '../shared/match.ts';

let id = 0;
const match = (fields: Partial<Match>): Match => {
  id += 1;
  return {
    id: String(id),
    monitorId: 'm1',
    source: 'hackernews',
    kind: 'comment',
    title: null,
    titleHighlights: [],
    threadTitle: 'Show HN: PGlite',
    threadId: '100',
    snippet: `comment ${id} about pglite`,
    highlights: [[14, 20]],
    hitFields: ['body'],
    url: null,
    permalink: `https://news.ycombinator.com/item?id=${1000 + id}`,
    author: `user${id}`,
    community: null,
    intents: [],
    sentiment: null,
    language: null,
    signalsCorrected: false,
    itemCreatedAt: '2026-06-10T10:00:00.000Z',
    matchedAt: '2026-06-10T10:00:00.000Z',
    read: false,
    rating: null,
    relevance: null,
    relevanceReasons: [],
    ...fields,
  };
};

describe('linkKey', () => {
  it('drops the scheme, www., a trailing slash, the fragment and tracking parameters', () => {
    const key = linkKey('https://example.com/a/b?x=1');
    expect(linkKey('http://www.example.com/a/b/?utm_source=hn&x=1&fbclid=z#top')).toBe(key);
    expect(linkKey('https://example.com/a/b?ref=lobsters&x=1&utm_medium=social')).toBe(key);
    expect(linkKey('https://example.com/a/b?x=2')).not.toBe(key);
    expect(linkKey('https://example.com/a/c?x=1')).not.toBe(key);
  });
  it('is null for what is not an http(s) link', () => {
    expect(linkKey(null)).toBeNull();
    expect(linkKey('javascript:alert(1)')).toBeNull();
    expect(linkKey('not a url')).toBeNull();
  });
});

describe('groupAlertEntries', () => {
  it('keeps one thread apart per monitor in the feed, each entry under a key of its own', () => {
    // A story two monitors caught, and two of its comments a third monitor caught: the feed
    // (partition byMonitor) shows the thread once per monitor, and the page keys each entry.
    const story = match({ kind: 'post', title: 'Story', threadTitle: null, monitorId: 'a' });
    const again = { ...story, id: 'again', monitorId: 'b' };
    const entries = groupAlertEntries(
      [story, again, match({ monitorId: 'c' }), match({ monitorId: 'c' })],
      {
        partition: byMonitor,
      },
    );
    expect(entries.map((entry) => entry.matches.length)).toEqual([2, 2]);
    expect(new Set(entries.map((entry) => entry.key)).size).toBe(2);
    // Without a partition (one monitor's email section) the key is the thread's own.
    expect(groupAlertEntries([story]).map((entry) => entry.key)).toEqual(['hackernews 100']);
  });

  it('makes one entry of a thread, led by its post when it matched, with its two best snippets', () => {
    const post = match({ kind: 'post', title: 'Show HN: PGlite', threadTitle: null, snippet: '' });
    const comments = [
      match({}),
      match({
        highlights: [
          [0, 1],
          [2, 3],
          [4, 5],
        ],
      }),
      match({
        highlights: [
          [0, 1],
          [2, 3],
        ],
      }),
    ];
    const other = match({ threadId: '200', threadTitle: 'Ask HN: databases' });
    const [thread, lone, ...rest] = groupAlertEntries([
      comments[0] as Match,
      post,
      ...comments.slice(1),
      other,
    ]);
    expect(rest).toEqual([]);
    expect(thread?.lead.match).toBe(post);
    expect(thread?.items).toHaveLength(4);
    expect(thread?.thread).toMatchObject({ id: '100', count: 4, comments: 3, post: true });
    expect(thread?.best.map((item) => item.match)).toEqual([comments[1], comments[2]]);
    expect(thread && entryHeadline(thread).text).toBe('Show HN: PGlite and 3 new comments');
    expect(lone?.thread).toBeNull();
    expect(lone && entryHeadline(lone).text).toBe('on: Ask HN: databases');
  });

  it('names a thread of comments only by its title and links it by its id', () => {
    const [entry] = groupAlertEntries([match({ threadId: '300' }), match({ threadId: '300' })]);
    expect(entry && entryHeadline(entry).text).toBe('2 new comments in “Show HN: PGlite”');
    expect(entry?.thread?.permalink).toBe('https://news.ycombinator.com/item?id=300');
  });

  it('makes one entry of one link posted on several sites, saying where else it is', () => {
    const hn = match({ kind: 'post', threadId: '400', url: 'https://www.example.com/post/' });
    const reddit = match({
      source: 'reddit',
      kind: 'post',
      threadId: 't3_abc',
      community: 'programming',
      url: 'http://example.com/post?utm_campaign=x',
    });
    const lobsters = match({
      source: 'lobsters',
      kind: 'post',
      threadId: 'xyz',
      url: 'https://example.com/post#c',
    });
    const entries = groupAlertEntries([hn, reddit, lobsters]);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.lead.match).toBe(hn);
    expect(entries[0]?.matches).toHaveLength(3);
    expect(describeAlsoOn(entries[0]?.alsoOn ?? [])).toBe(
      'also on Reddit (r/programming), Lobsters',
    );
  });

  it('keeps items without a known thread apart', () => {
    expect(groupAlertEntries([match({ threadId: null }), match({ threadId: null })])).toHaveLength(
      2,
    );
  });
});
