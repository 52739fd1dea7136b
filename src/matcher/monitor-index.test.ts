import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createMonitorIndex,
  type Highlight,
  type ItemField,
  type MatchableItem,
  type MonitorIndex,
  shardOf,
} from './monitor-index.ts';
import type { GapRule, QueryNode } from './query-ast.ts';
import { parseQuery } from './query-parser.ts';

const matches = (query: string, item: MatchableItem): boolean => {
  const index = createMonitorIndex();
  index.add('m', query);
  return index.match(item).length === 1;
};

const post = (title: string, body = '', extra: Partial<MatchableItem> = {}): MatchableItem => ({
  source: 'reddit',
  title,
  body,
  ...extra,
});

/** The sorted ids of the monitors of `index` that match `item`, each time it is called. */
const matchedIds = (index: MonitorIndex, item: MatchableItem) => () =>
  index
    .match(item)
    .map((m) => m.monitorId)
    .sort();

describe('MonitorIndex semantics (docs/product.md, "The query language")', () => {
  it.each<[string, string, MatchableItem, boolean]>([
    ['whole word', 'rust', post("Rust's borrow checker"), true],
    ['any case', 'rust', post('RUST 2024'), true],
    ['not inside a word', 'rust', post('I trust it'), false],
    ['not a longer word', 'rust', post('rusty nails'), false],
    ['domain', 'reddit', post('see reddit.com'), true],
    ['underscore', 'reddit', post('', 'reddit_user wrote'), true],
    ['diacritics', 'cafe', post('Café au lait'), true],
    ['diacritics in the query', 'café', post('CAFE'), true],
    ['phrase', '"open source"', post('Open-Source tools'), true],
    ['phrase with accents and a hyphen', '"conde nast"', post('Condé Nast / Conde-Nast'), true],
    ['phrase in order only', '"open source"', post('source open'), false],
    ['phrase adjacent only', '"open source"', post('open the source'), false],
    ['phrase never crosses fields', '"open source"', post('Hello open', 'source code'), false],
    ['AND', 'pglite vector', post('pglite', 'a vector db'), true],
    ['AND needs both', 'pglite vector', post('pglite only'), false],
    ['OR left', 'postgres OR mysql', post('postgres'), true],
    ['OR right', 'postgres OR mysql', post('MySQL'), true],
    ['OR neither', 'postgres OR mysql', post('sqlite'), false],
    ['OR binds tighter', 'rust async OR await', post('await in rust'), true],
    ['OR binds tighter (no rust)', 'rust async OR await', post('async await'), false],
    ['exclusion', 'rust -game', post('rust the game'), false],
    ['exclusion absent', 'rust -game', post('rust the language'), true],
    ['excluded group', 'rust -(game OR survival)', post('rust survival'), false],
    ['prefix', 'rust*', post('Rustaceans unite'), true],
    ['prefix includes the word', 'rust*', post('rust'), true],
    ['prefix is a word start', 'rust*', post('trusty'), false],
    ['group', '(postgres OR mysql) replication', post('MySQL replication lag'), true],
    ['site', 'site:hackernews dropbox', post('Dropbox', '', { source: 'hackernews' }), true],
    ['site other', 'site:hackernews dropbox', post('Dropbox'), false],
    ['negated site', 'dropbox -site:reddit', post('Dropbox'), false],
    ['subreddit', 'subreddit:rust async', post('async', '', { community: 'Rust' }), true],
    ['r/ alias', 'r/rust async', post('async', '', { community: 'golang' }), false],
    [
      'negated subreddit',
      'rust -subreddit:playrust',
      post('rust', '', { community: 'playrust' }),
      false,
    ],
    ['subreddit alone', 'r/kakapo', post('', 'anything', { community: 'kakapo' }), true],
    [
      'repository',
      'repo:sigmavirus24/github3.py release',
      post('Release 1.0', '', { source: 'github', community: 'sigmavirus24/github3.py' }),
      true,
    ],
    [
      'repository, any case, alone',
      'repo:SigmaVirus24/GitHub3.py',
      post('', 'anything', { source: 'github', community: 'sigmavirus24/github3.py' }),
      true,
    ],
    [
      'another repository',
      'repo:betamaxpy/betamax release',
      post('release', '', { source: 'github', community: 'sigmavirus24/github3.py' }),
      false,
    ],
    [
      'a feed of that name is not the repository',
      'repo:owner/name',
      post('x', '', { source: 'feeds', community: 'owner/name' }),
      false,
    ],
    ['author', 'author:spez reddit', post('reddit', '', { author: 'Spez' }), true],
    ['negated author', 'rust -author:bot', post('rust', '', { author: 'bot' }), false],
    ['intent', 'rust intent:question', post('rust?', '', { intents: ['question'] }), true],
    ['intent other', 'rust intent:question', post('rust', '', { intents: ['launch'] }), false],
    ['intent of none', 'rust intent:question', post('rust'), false],
    ['negated intent', 'rust -intent:hiring', post('rust', '', { intents: ['hiring'] }), false],
    ['negated intent of none', 'rust -intent:hiring', post('rust'), true],
    ['sentiment', 'rust sentiment:negative', post('rust', '', { sentiment: 'negative' }), true],
    [
      'sentiment other',
      'rust sentiment:negative',
      post('rust', '', { sentiment: 'neutral' }),
      false,
    ],
    ['lang', 'rust lang:de', post('rust', '', { language: 'de' }), true],
    ['lang other', 'rust lang:de', post('rust', '', { language: 'en' }), false],
    ['negated lang unknown', 'rust -lang:en', post('rust', '', { language: null }), true],
    [
      'signals in an OR',
      'rust (intent:praise OR sentiment:positive)',
      post('rust', '', { sentiment: 'positive' }),
      true,
    ],
    ['title', 'title:trump', post('Trump speaks'), true],
    ['title only', 'title:trump', post('Speech', 'Trump spoke'), false],
    ['title phrase', 'title:"show hn"', post('Show HN: my app'), true],
    ['url field', 'example.com', post('link', '', { url: 'https://example.com/a' }), true],
    ['url words', 'github', post('link', '', { url: 'https://github.com/x' }), true],
    ['node.js', 'node.js', post('I love Node.js!'), true],
    ['node.js not node js', 'node.js', post('node js'), false],
    ['c++', 'c++', post('C++ is fast'), true],
    ['c++ at the end', 'c++', post('I write C++'), true],
    ['c++ is not c', 'c++', post('C is old'), false],
    ['c++ is not c++17', 'c++', post('C++17 is here'), false],
    ['c# is not c', 'c#', post('the letter c'), false],
    ['c#', 'c#', post('C# and F#'), true],
    ['.net', '.net', post('(.NET 8) released'), true],
    ['.net at the start', '.net', post('.NET 8'), true],
    ['.net is not asp.net', '.net', post('ASP.NET core'), false],
    ['.net is not a domain', '.net', post('slashdot.net'), false],
    ['$tsla', '$tsla', post('Buy $TSLA now'), true],
    ['$tsla is not tsla', '$tsla', post('TSLA shares'), false],
    ['e-mail', 'e-mail', post('Send an E-Mail'), true],
    ['e-mail with a Unicode hyphen', 'e-mail', post('Send an e\u2011mail'), true],
    ['e-mail is not email', 'e-mail', post('send email'), false],
    ['phrase over a hyphen', '"e mail"', post('e-mail'), true],
    ['possessive written out', "reddit's", post('Reddit\u2019s API'), true],
    ['phrase with c++', '"c++ tips"', post('C++ tips'), true],
    ['phrase with c++ is not c', '"c++ tips"', post('C tips'), false],
    ['CJK word', '東京', post('東京都に行きます'), true],
    ['CJK not a different word', '京都', post('東京都に行きます'), false],
    ['Chinese', '编程', post('我喜欢Rust编程'), true],
    ['Thai', 'ไทย', post('ภาษาไทยง่าย'), true],
    ['emoji next to a word', 'launch', post('🚀launch day'), true],
    ['decoded entities', 'at&t', post('AT&T merger'), true],
    ['empty item', 'rust', post('', ''), false],
    ['lone *', '*', post('anything'), true],
    ['lone * on an empty item', '*', post(''), false],
    ['no positive term', '-hiring', post('anything'), true],
    ['no positive term, excluded', '-hiring', post('we are hiring'), false],
    ['negation inside OR', 'rust OR -game', post('a game'), false],
  ])('%s: %s', (_, query, item, expected) => {
    expect(matches(query, item)).toBe(expected);
  });

  it('finds a word at the end of a 1 MB item', () => {
    const body = `${'lorem ipsum dolor sit amet '.repeat(40_000)}pglite`;
    expect(body.length).toBeGreaterThan(1_000_000);
    const index = createMonitorIndex();
    index.add('m', 'pglite');
    index.add('n', '"dolor sit" -pglite');
    expect(index.match(post('', body))).toEqual([
      { monitorId: 'm', highlights: [{ field: 'body', start: body.length - 6, end: body.length }] },
    ]);
  });

  it('keeps every term of an item holding hundreds of watched words', () => {
    const words = Array.from({ length: 700 }, (_, i) => `w${i.toString(36)}x`);
    const index = createMonitorIndex();
    words.forEach((word, i) => {
      index.add(`single-${i}`, word);
      if (i % 7 === 0) index.add(`phrase-${i}`, `"${word} ${words[i + 1] ?? 'none'}"`);
      if (i % 11 === 0) index.add(`or-${i}`, `${word} OR ${words[(i + 350) % 700]} OR nowhere`);
    });
    const body = words.join(' ');
    const found = index.match(post('', body));
    const ids = found.map((m) => m.monitorId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => id.startsWith('single-'))).toHaveLength(700);
    expect(ids.filter((id) => id.startsWith('phrase-'))).toHaveLength(100);
    expect(ids.filter((id) => id.startsWith('or-'))).toHaveLength(64);
    const at = body.indexOf(' w9ix ') + 1;
    expect(found.find((m) => m.monitorId === `single-${9 * 36 + 18}`)?.highlights).toEqual([
      { field: 'body', start: at, end: at + 4 },
    ]);
    expect(index.match(post('', 'w0x nothing else'))).toHaveLength(2);
  });
});

describe('MonitorIndex highlights', () => {
  const highlights = (query: string, item: MatchableItem) => {
    const index = createMonitorIndex();
    index.add('m', query);
    return index.match(item)[0]?.highlights;
  };

  it('gives UTF-16 ranges into the original field, in field order', () => {
    const item = post('Condé Nast 🚀 news', 'about condé nast', { url: 'https://conde.com' });
    expect(highlights('"conde nast" OR conde', item)).toEqual([
      { field: 'title', start: 0, end: 10 },
      { field: 'body', start: 6, end: 16 },
      { field: 'url', start: 8, end: 13 },
    ]);
  });

  it('covers the punctuation of a punctuated term', () => {
    expect(highlights('c++ .net', post('C++ and .NET'))).toEqual([
      { field: 'title', start: 0, end: 3 },
      { field: 'title', start: 8, end: 12 },
    ]);
  });

  it('marks positive terms only', () => {
    expect(highlights('rust -game', post('rust rust'))).toEqual([
      { field: 'title', start: 0, end: 4 },
      { field: 'title', start: 5, end: 9 },
    ]);
  });

  it('merges overlapping hits', () => {
    expect(highlights('"open source" OR source', post('open source'))).toEqual([
      { field: 'title', start: 0, end: 11 },
    ]);
  });
});

describe('MonitorIndex lifecycle', () => {
  it('adds, updates and removes in place', () => {
    const index = createMonitorIndex();
    expect(index.add('a', 'rust')).toBe(true);
    expect(index.add('b', 'rust')).toBe(true);
    const ids = () =>
      index
        .match(post('rust and go'))
        .map((m) => m.monitorId)
        .sort();
    expect(ids()).toEqual(['a', 'b']);
    index.update('a', 'python');
    expect(ids()).toEqual(['b']);
    index.update('a', 'go');
    expect(ids()).toEqual(['a', 'b']);
    expect(index.remove('b')).toBe(true);
    expect(index.remove('b')).toBe(false);
    expect(ids()).toEqual(['a']);
    expect(index.size).toBe(1);
    expect(index.stats()).toMatchObject({ monitors: 1, queries: 1, terms: 1 });
  });

  it('refuses a duplicate id and an update of an unknown one', () => {
    const index = createMonitorIndex();
    index.add('a', 'rust');
    expect(() => index.add('a', 'go')).toThrow('already in the index');
    expect(() => index.update('x', 'go')).toThrow('not in the index');
  });

  it('keeps the old query when the new one does not parse', () => {
    const index = createMonitorIndex();
    index.add('a', 'rust');
    expect(() => index.update('a', '"open')).toThrow('A closing quote is missing');
    expect(index.match(post('rust'))).toHaveLength(1);
  });

  it('forgets terms and prefixes with their last monitor', () => {
    const index = createMonitorIndex();
    index.add('a', 'rust* "open source" c++');
    index.add('b', 'rust*');
    index.remove('a');
    index.remove('b');
    expect(index.stats()).toMatchObject({ monitors: 0, queries: 0, terms: 0 });
    expect(index.match(post('rustacean open source c++'))).toEqual([]);
  });

  it('finds prefixes of every length as shorter and longer ones come and go', () => {
    const index = createMonitorIndex();
    const ids = (text: string) =>
      index
        .match(post(text))
        .map((m) => m.monitorId)
        .sort();
    index.add('long', 'rustace*');
    expect(ids('Rustaceans')).toEqual(['long']);
    index.add('short', 'ru*');
    index.add('mid', 'rust*');
    index.add('accent', 'café*');
    expect(ids('Rustaceans')).toEqual(['long', 'mid', 'short']);
    expect(ids('rug')).toEqual(['short']);
    expect(ids('cafés rusty')).toEqual(['accent', 'mid', 'short']);
    index.remove('short');
    expect(ids('Rustaceans')).toEqual(['long', 'mid']);
    expect(ids('rug')).toEqual([]);
    index.remove('mid');
    index.update('long', 'rus*');
    expect(ids('Rustaceans cafétéria')).toEqual(['accent', 'long']);
    index.add('one', 'r*');
    expect(ids('R rug')).toEqual(['one']);
    expect(ids('Rustaceans')).toEqual(['long', 'one']);
    index.remove('one');
    expect(ids('R rug')).toEqual([]);
  });

  it('finds a two-letter prefix in words of one, two and more letters', () => {
    const index = createMonitorIndex();
    index.add('go', 'go*');
    index.add('gopher', 'goph*');
    const count = (text: string) => index.match(post(text)).length;
    expect(count('Go')).toBe(1);
    expect(count('gopher')).toBe(2);
    expect(count('g ago ogo')).toBe(0);
    index.remove('go');
    expect(count('Go')).toBe(0);
    expect(count('gophers')).toBe(1);
  });

  it('reads community and author names as filters on them come and go', () => {
    const index = createMonitorIndex();
    const ids = matchedIds(index, post('rust', '', { author: 'Ann', community: 'Rust' }));
    index.add('plain', 'rust');
    expect(ids()).toEqual(['plain']);
    index.add('ann', 'author:ann rust');
    index.add('not-r', 'rust -r/rust');
    expect(ids()).toEqual(['ann', 'plain']);
    index.remove('ann');
    index.remove('not-r');
    index.add('bob', 'author:bob');
    expect(ids()).toEqual(['plain']);
    index.update('bob', 'author:ann');
    index.add('r', 'r/rust');
    expect(ids()).toEqual(['bob', 'plain', 'r']);
  });

  it('finds monitors through names as long as any is left, and names only checked on demand', () => {
    const index = createMonitorIndex();
    const ids = matchedIds(index, post('Async closures', '', { author: 'Ann', community: 'Rust' }));
    index.add('community', 'r/rust');
    index.add('author', 'author:ann');
    index.add('both', 'r/rust OR author:bob');
    index.add('word', 'async r/rust');
    index.add('not', 'closures -author:ann');
    expect(ids()).toEqual(['author', 'both', 'community', 'word']);
    index.remove('community');
    index.remove('both');
    expect(ids()).toEqual(['author', 'word']);
    index.remove('author');
    expect(ids()).toEqual(['word']);
    index.update('word', 'async -r/rust');
    index.update('not', 'closures author:ann');
    expect(ids()).toEqual(['not']);
  });

  it('restricts a monitor to its sources', () => {
    const index = createMonitorIndex();
    index.add('a', 'rust', { sources: ['hackernews', 'lobsters'] });
    index.add('b', 'rust');
    const ids = (source: string) =>
      index.match(post('rust', '', { source })).map((m) => m.monitorId);
    expect(ids('reddit')).toEqual(['b']);
    expect(ids('lobsters').sort()).toEqual(['a', 'b']);
  });

  it('shares the compiled query of a text within a bulk load, sources apart', () => {
    const index = createMonitorIndex();
    const entries = Array.from({ length: 300 }, (_, i) => ({
      id: `m${i}`,
      query: i % 3 === 0 ? 'rust -game' : 'rust',
      ...(i % 5 === 0 ? { sources: ['hackernews' as const] } : {}),
    }));
    expect(index.addMany(entries)).toBe(300);
    // rust, rust -game, and each on Hacker News only.
    expect(index.stats().queries).toBe(4);
    const ids = (item: MatchableItem) => matchedIds(index, item)();
    const expected = (source: string, game: boolean) =>
      entries
        .filter((e, i) => (e.sources === undefined || source === 'hackernews') && (!game || i % 3))
        .map((e) => e.id)
        .sort();
    expect(ids(post('rust news', '', { source: 'reddit' }))).toEqual(expected('reddit', false));
    expect(ids(post('rust game', '', { source: 'hackernews' }))).toEqual(
      expected('hackernews', true),
    );
  });

  it('compiles a text again in a bulk load after its query was dropped during it', () => {
    const index = createMonitorIndex();
    function* entries() {
      yield { id: 'a', query: 'rust -game' };
      index.remove('a');
      index.add('b', 'golang'); // may take the dropped query's number
      yield { id: 'c', query: 'rust -game' };
    }
    expect(index.addMany(entries())).toBe(2);
    expect(matchedIds(index, post('rust'))()).toEqual(['c']);
    expect(matchedIds(index, post('golang'))()).toEqual(['b']);
    expect(matchedIds(index, post('rust game'))()).toEqual([]);
  });

  it('adds a bulk load in order, stopping at a bad query or a repeated id', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `m${i}`);
    const bad = createMonitorIndex();
    const withBadQuery = ids.map((id, i) => ({ id, query: i === 250 ? 'rust (' : 'rust' }));
    expect(() => bad.addMany(withBadQuery)).toThrow();
    expect(bad.size).toBe(250);
    expect(bad.has('m249') && !bad.has('m250') && !bad.has('m251')).toBe(true);
    const repeated = createMonitorIndex();
    const withRepeat = ids.map((id, i) => ({ id: i === 300 ? 'm7' : id, query: 'go' }));
    expect(() => repeated.addMany(withRepeat)).toThrow(/already/);
    expect(repeated.size).toBe(300);
    expect(repeated.match(post('go')).length).toBe(300);
  });

  it('partitions monitors into shards by a stable hash of the id', () => {
    const shards = [0, 1, 2].map((index) => createMonitorIndex({ shard: { index, count: 3 } }));
    const ids = Array.from(
      { length: 60 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    for (const id of ids) {
      const kept = shards.map((shard) => shard.add(id, 'rust'));
      expect(kept.filter(Boolean)).toHaveLength(1);
      expect(kept.indexOf(true)).toBe(shardOf(id, 3));
    }
    const found = shards.flatMap((shard) => shard.match(post('rust')).map((m) => m.monitorId));
    expect(found.sort()).toEqual([...ids].sort());
    expect(shards.every((shard) => shard.size > 5)).toBe(true);
    expect(shardOf('monitor-1', 7)).toBe(shardOf('monitor-1', 7));
  });
});

// --- The reference: a deliberately plain per-monitor scan, sharing nothing with the index but
// the parser's AST. Words come from a regex, phrases and gap rules are checked on token arrays.

interface RefToken {
  readonly word: string;
  readonly start: number;
  readonly end: number;
}

const foldRef = (text: string): string =>
  text.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '').normalize('NFC');

function tokensRef(text: string): RefToken[] {
  return [...text.matchAll(/[\p{L}\p{N}\p{M}]+/gu)].map((m) => ({
    word: foldRef(m[0]),
    start: m.index,
    end: m.index + m[0].length,
  }));
}

function gapOk(rule: GapRule, gap: string, edge: boolean): boolean {
  if (rule.exact) return gap === rule.head;
  if (rule.head === '' && rule.tail === '') return true;
  if (!gap.startsWith(rule.head) || !gap.endsWith(rule.tail)) return false;
  return edge || gap.length > rule.head.length + rule.tail.length;
}

const FIELD_NAMES: readonly ItemField[] = ['title', 'body', 'url'];

function referenceHits(
  node: QueryNode,
  item: MatchableItem,
  fields: readonly ItemField[],
): Highlight[] {
  const hits: Highlight[] = [];
  for (const field of fields) {
    const text = item[field] ?? '';
    const tokens = tokensRef(text);
    if (node.type === 'prefix') {
      for (const t of tokens)
        if (t.word.startsWith(node.prefix)) hits.push({ field, start: t.start, end: t.end });
      continue;
    }
    if (node.type !== 'term') continue;
    const { words, gaps } = node.sequence;
    for (let i = 0; i + words.length <= tokens.length; i++) {
      if (!words.every((w, k) => tokens[i + k]!.word === w)) continue;
      let lead = 0;
      let trail = 0;
      if (gaps !== null) {
        const ok = gaps.every((rule, k) => {
          const from = k === 0 ? (tokens[i - 1]?.end ?? 0) : tokens[i + k - 1]!.end;
          const to =
            k === words.length ? (tokens[i + k]?.start ?? text.length) : tokens[i + k]!.start;
          const edge = (k === 0 && i === 0) || (k === words.length && i + k === tokens.length);
          return gapOk(
            rule,
            text.slice(from, to).replace(/[\u2019\u2011]/gu, (c) => (c === '\u2019' ? "'" : '-')),
            edge,
          );
        });
        if (!ok) continue;
        lead = gaps[0]!.tail.length;
        trail = gaps[words.length]!.head.length;
      }
      hits.push({
        field,
        start: tokens[i]!.start - lead,
        end: tokens[i + words.length - 1]!.end + trail,
      });
    }
  }
  return hits;
}

function referenceMatches(node: QueryNode, item: MatchableItem, fields = FIELD_NAMES): boolean {
  switch (node.type) {
    case 'term':
    case 'prefix':
      return referenceHits(node, item, fields).length > 0;
    case 'and':
      return node.children.every((child) => referenceMatches(child, item, fields));
    case 'or':
      return node.children.some((child) => referenceMatches(child, item, fields));
    case 'not':
      return !referenceMatches(node.child, item, fields);
    case 'title':
      return referenceMatches(node.child, item, ['title']);
    case 'site':
      return item.source === node.source;
    case 'community':
      return (item.community ?? '').toLowerCase() === node.name;
    case 'author':
      return (item.author ?? '').toLowerCase() === node.name;
    case 'signal':
      if (node.signal === 'intent') return (item.intents ?? []).includes(node.value);
      return (node.signal === 'sentiment' ? item.sentiment : item.language) === node.value;
  }
}

function referenceHighlights(
  node: QueryNode,
  item: MatchableItem,
  fields = FIELD_NAMES,
): Highlight[] {
  switch (node.type) {
    case 'term':
    case 'prefix':
      return referenceHits(node, item, fields);
    case 'and':
    case 'or':
      return node.children.flatMap((child) => referenceHighlights(child, item, fields));
    case 'title':
      return referenceHighlights(node.child, item, ['title']);
    default:
      return [];
  }
}

function mergeRef(hits: Highlight[]): Highlight[] {
  const sorted = [...hits].sort(
    (a, b) => FIELD_NAMES.indexOf(a.field) - FIELD_NAMES.indexOf(b.field) || a.start - b.start,
  );
  const out: Highlight[] = [];
  for (const h of sorted) {
    const last = out.at(-1);
    if (last && last.field === h.field && h.start <= last.end) {
      out[out.length - 1] = { ...last, end: Math.max(last.end, h.end) };
    } else out.push(h);
  }
  return out;
}

const VOCABULARY = [
  'rust',
  'trust',
  'rusty',
  'go',
  'node',
  'js',
  'c',
  'net',
  'e',
  'mail',
  'open',
  'source',
  'café',
  'cafe',
  'the',
];
const word = fc.constantFrom(...VOCABULARY);
const spelled = fc
  .tuple(word, fc.constantFrom('lower', 'upper', 'title'))
  .map(([w, style]) =>
    style === 'upper' ? w.toUpperCase() : style === 'title' ? w[0]!.toUpperCase() + w.slice(1) : w,
  );
const separator = fc.constantFrom(
  ' ',
  ' ',
  ' ',
  '. ',
  '.',
  '-',
  '\u2011',
  "'",
  '\u2019',
  '++',
  '#',
  ' $',
  ', ',
  '\n',
  '_',
  ' (',
);
const text = fc
  .array(fc.tuple(spelled, separator), { maxLength: 12 })
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

const leaf: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: word },
  { weight: 2, arbitrary: fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`) },
  { weight: 1, arbitrary: fc.tuple(word, word, word).map(([a, b, c]) => `"${a} ${b} ${c}"`) },
  { weight: 2, arbitrary: word.map((w) => `${w.slice(0, 1 + (w.length >> 1))}*`) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'c++',
      'c#',
      '.net',
      'node.js',
      'e-mail',
      '$net',
      "rust's",
      '"c++ open"',
      'go-rust',
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom('site:reddit', 'site:hackernews', 'r/rust', 'author:ann'),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'intent:question',
      'intent:complaint',
      'sentiment:negative',
      'sentiment:positive',
      'lang:en',
      'lang:de',
    ),
  },
  { weight: 1, arbitrary: word.map((w) => `title:${w}`) },
);
const { query } = fc.letrec<{ query: string; unit: string }>((tie) => ({
  unit: fc.oneof(
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: tie('query').map((q) => `(${q})`) },
    { weight: 1, arbitrary: tie('unit').map((u) => (u.startsWith('-') ? u : `-${u}`)) },
  ),
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('unit'),
    fc.tuple(tie('unit'), tie('unit')).map(([a, b]) => `${a} ${b}`),
    fc.tuple(tie('unit'), tie('unit')).map(([a, b]) => `${a} OR ${b}`),
  ),
}));
const item: fc.Arbitrary<MatchableItem> = fc.record({
  source: fc.constantFrom('reddit', 'hackernews', 'lobsters'),
  title: fc.option(text),
  body: text,
  url: fc.option(
    fc.constantFrom(
      'https://rust.net/go',
      'https://example.com/node.js',
      'https://open-source.org',
    ),
  ),
  community: fc.option(fc.constantFrom('rust', 'Rust', 'golang')),
  author: fc.option(fc.constantFrom('ann', 'Ann', 'bob')),
  intents: fc.subarray(['question', 'complaint', 'launch']),
  sentiment: fc.option(fc.constantFrom('positive', 'neutral', 'negative')),
  language: fc.option(fc.constantFrom('en', 'de')),
});

describe('MonitorIndex equals the reference scan', () => {
  it('on random queries and items', () => {
    fc.assert(
      fc.property(
        fc.array(query, { minLength: 1, maxLength: 25 }),
        fc.array(item, { maxLength: 8 }),
        (queries, items) => {
          const index = createMonitorIndex();
          const asts = queries.map((q) => parseQuery(q));
          for (const [i, ast] of asts.entries()) index.add(`m${i}`, ast);
          for (const it of items) {
            const got = new Map(index.match(it).map((m) => [m.monitorId, m.highlights]));
            asts.forEach((ast, i) => {
              const expected = referenceMatches(ast, it);
              expect({ query: queries[i], item: it, matched: got.has(`m${i}`) }).toEqual({
                query: queries[i],
                item: it,
                matched: expected,
              });
              if (expected)
                expect(got.get(`m${i}`)).toEqual(mergeRef(referenceHighlights(ast, it)));
            });
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('after random adds, updates and removes', () => {
    const operation = fc.tuple(
      fc.constantFrom('add', 'update', 'remove'),
      fc.integer({ min: 0, max: 7 }),
      query,
    );
    fc.assert(
      fc.property(
        fc.array(operation, { maxLength: 40 }),
        fc.array(item, { minLength: 1, maxLength: 5 }),
        (operations, items) => {
          const index = createMonitorIndex();
          const live = new Map<string, QueryNode>();
          for (const [op, n, q] of operations) {
            const id = `m${n}`;
            if (op === 'remove') {
              expect(index.remove(id)).toBe(live.delete(id));
            } else if (live.has(id)) {
              index.update(id, q);
              live.set(id, parseQuery(q));
            } else {
              index.add(id, q);
              live.set(id, parseQuery(q));
            }
          }
          for (const it of items) {
            const got = index
              .match(it)
              .map((m) => m.monitorId)
              .sort();
            const expected = [...live]
              .filter(([, ast]) => referenceMatches(ast, it))
              .map(([id]) => id)
              .sort();
            expect(got).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('the same after a bulk load (addMany) and then random changes', () => {
    const operation = fc.tuple(
      fc.constantFrom('add', 'update', 'remove'),
      fc.integer({ min: 0, max: 42 }),
      query,
    );
    fc.assert(
      fc.property(
        fc.array(query, { maxLength: 30 }),
        fc.array(operation, { maxLength: 20 }),
        fc.array(item, { minLength: 1, maxLength: 5 }),
        (initial, operations, items) => {
          const index = createMonitorIndex();
          const live = new Map<string, QueryNode>();
          const sources = (n: number) => (n % 5 === 4 ? { sources: ['reddit' as const] } : {});
          // Texts repeat (the bulk load compiles a text once), some of them with other sources.
          const texts = [...initial, ...initial.slice(0, 12)];
          const entries = texts.map((q, n) => ({ id: `m${n}`, query: q, ...sources(n) }));
          expect(index.addMany(entries)).toBe(entries.length);
          for (const [n, q] of texts.entries()) live.set(`m${n}`, parseQuery(q));
          for (const [op, n, q] of operations) {
            const id = `m${n}`;
            if (op === 'remove') {
              expect(index.remove(id)).toBe(live.delete(id));
            } else if (live.has(id)) {
              index.update(id, q, sources(n));
              live.set(id, parseQuery(q));
            } else {
              index.add(id, q, sources(n));
              live.set(id, parseQuery(q));
            }
          }
          for (const it of items) {
            const got = index
              .match(it)
              .map((m) => m.monitorId)
              .sort();
            const expected = [...live]
              .filter(([id, ast]) => {
                const n = Number(id.slice(1));
                return referenceMatches(ast, it) && (n % 5 !== 4 || it.source === 'reddit');
              })
              .map(([id]) => id)
              .sort();
            expect(got).toEqual(expected);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
