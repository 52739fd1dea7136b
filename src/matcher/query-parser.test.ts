import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkQueryBreadth } from './query-check.ts';
import { formatQuery } from './query-format.ts';
import {
  parseQuery,
  parseQueryGeneral,
  parseSimpleQuery,
  QuerySyntaxError,
} from './query-parser.ts';

const canonical = (query: string) => formatQuery(parseQuery(query));

describe('parseQuery: every row of the syntax table (docs/product.md, "The query language")', () => {
  it.each([
    ['word', 'Rust', 'rust'],
    ['phrase', '"Open   Source"', '"open source"'],
    ['implicit AND', 'pglite vector', 'pglite vector'],
    ['explicit AND is the same', 'pglite AND vector', 'pglite vector'],
    ['OR', 'postgres OR mysql', 'postgres OR mysql'],
    ['exclusion', '-hiring rust', '-hiring rust'],
    ['prefix', 'Rust*', 'rust*'],
    ['grouping', '(postgres OR mysql) -(oracle db2)', 'postgres OR mysql -(oracle db2)'],
    ['AND inside OR keeps its brackets', '(a b) OR c', '(a b) OR c'],
    ['site', 'site:HackerNews dropbox', 'site:hackernews dropbox'],
    ['site alias', 'site:hn site:lobste.rs', 'site:hackernews site:lobsters'],
    ['site dev', 'site:dev.to site:DEVTO', 'site:devto site:devto'],
    ['subreddit', 'subreddit:Rust async', 'subreddit:rust async'],
    ['r/ alias', 'r/rust async', 'subreddit:rust async'],
    ['negated subreddit', 'rust -subreddit:playrust', 'rust -subreddit:playrust'],
    ['author', 'author:PG', 'author:pg'],
    ['negated author', 'rust -author:AutoModerator', 'rust -author:automoderator'],
    ['intent', 'rust intent:Question', 'rust intent:question'],
    ['negated intent', 'rust -intent:hiring', 'rust -intent:hiring'],
    ['sentiment', 'sentiment:NEGATIVE rust', 'sentiment:negative rust'],
    ['lang', 'rust lang:EN', 'rust lang:en'],
    ['language is lang', 'rust language:de', 'rust lang:de'],
    ['negated lang', 'rust -lang:en', 'rust -lang:en'],
    [
      'repository',
      'repo:Sigmavirus24/github3.py release',
      'site:github repo:sigmavirus24/github3.py release',
    ],
    [
      'repository by its address',
      'repo:https://github.com/facebook/react/',
      'site:github repo:facebook/react',
    ],
    ['negated repository', 'bug -repo:a/b', 'bug -(site:github repo:a/b)'],
    ['title', 'title:trump', 'title:trump'],
    ['title with a phrase', 'title:"Show HN"', 'title:"show hn"'],
    ['title with a group', 'title:(rust OR go)', 'title:(rust OR go)'],
    ['inner punctuation', 'node.js C++ c# .NET $TSLA e-mail', 'node.js c++ c# .net $tsla e-mail'],
    ['curly quotes make a phrase', '\u201copen source\u201d', '"open source"'],
    ['diacritics folded', 'Condé', 'conde'],
  ])('%s: %s', (_, query, expected) => {
    expect(canonical(query)).toBe(expected);
  });

  it('binds OR tighter than the implicit AND', () => {
    expect(parseQuery('rust async OR await')).toMatchObject({
      type: 'and',
      children: [{ type: 'term' }, { type: 'or', children: [{ type: 'term' }, { type: 'term' }] }],
    });
  });

  it('applies - to the next term or group only', () => {
    expect(parseQuery('-a b')).toMatchObject({
      type: 'and',
      children: [{ type: 'not', child: { type: 'term' } }, { type: 'term' }],
    });
    expect(parseQuery('-(a b)')).toMatchObject({ type: 'not', child: { type: 'and' } });
  });

  it('records where a term stands', () => {
    expect(parseQuery('rust "open source"')).toMatchObject({
      children: [
        { start: 0, end: 4 },
        { start: 5, end: 18 },
      ],
    });
  });
});

describe('parseQuery: errors a non-programmer understands', () => {
  it.each([
    ['', 0, 'Type a word to watch for.'],
    ['   ', 0, 'Type a word to watch for.'],
    ['rust "open source', 5, 'A closing quote is missing after \u201copen source\u201d.'],
    ['""', 0, 'The quotes are empty: put words between them, like "open source".'],
    ['"!!!"', 0, '\u201c!!!\u201d has no letters or digits to look for.'],
    ['rust !!!', 5, '\u201c!!!\u201d has no letters or digits to look for.'],
    ['(rust OR go', 0, 'The bracket opened here is never closed: add a \u201c)\u201d.'],
    ['rust)', 4, 'This closing bracket has no opening bracket before it.'],
    ['()', 0, 'The brackets are empty: put words between them, like (postgres OR mysql).'],
    ['OR rust', 0, 'OR needs a word on each side, like postgres OR mysql.'],
    ['rust OR', 5, 'OR needs a word on each side, like postgres OR mysql.'],
    ['rust OR OR go', 5, 'OR needs a word on each side, like postgres OR mysql.'],
    [
      'AND rust',
      0,
      'AND needs a word on each side, like postgres AND mysql (or just postgres mysql).',
    ],
    ['rust - game', 5, 'A minus sign must stand right before what it excludes, like -hiring.'],
    ['rust -', 5, 'A minus sign must stand right before what it excludes, like -hiring.'],
    ['--rust', 0, 'Two minus signs in a row: use one, like -hiring.'],
    ['ru*st', 2, 'A * can only end a word, like rust*.'],
    ['node.j*', 6, 'A * can only end a plain word, like rust*.'],
    ['"rust*"', 5, 'A * does not work inside quotes: put it after a word, like rust*.'],
    [
      'site:myspace',
      0,
      'Unknown site \u201cmyspace\u201d: use site:hackernews, site:reddit, site:lobsters, site:devto, site:mastodon, site:github, site:feeds, site:bluesky, site:stackoverflow.',
    ],
    ['site: rust', 0, 'Write a name right after site:, like site:reddit.'],
    ['author:', 0, 'Write a name right after author:, like author:pg.'],
    ['repo: rust', 0, 'Write a name right after repo:, like repo:facebook/react.'],
    [
      'repo:react bug',
      0,
      'Write a repository as owner/name after repo:, like repo:facebook/react (not \u201creact\u201d).',
    ],
    ['r/', 0, 'Write a name right after r/, like r/rust.'],
    ['title: rust', 0, 'Write the word right after title:, like title:rust.'],
    [
      'title:(rust site:reddit)',
      0,
      'title: can only hold words, not site:, subreddit:, author:, intent:, sentiment: or lang:.',
    ],
    [
      'rust intent:rant',
      5,
      'Unknown intent \u201crant\u201d: use intent:question, intent:recommendation, intent:comparison, intent:complaint, intent:praise, intent:hiring, intent:launch.',
    ],
    [
      'rust intent:',
      5,
      'Write a value after intent:, like intent:question, intent:recommendation, intent:comparison, intent:complaint, intent:praise, intent:hiring, intent:launch.',
    ],
    [
      'sentiment:angry rust',
      0,
      'Unknown sentiment \u201cangry\u201d: use sentiment:positive, sentiment:neutral, sentiment:negative.',
    ],
    [
      'rust lang:english',
      5,
      'Write a two-letter language code after lang:, like lang:en or lang:de (not \u201cenglish\u201d).',
    ],
    ['rust lang:', 5, 'Write a two-letter language code after lang:, like lang:en or lang:de.'],
    [
      '(((((((((((((((((((((((((((((((((a)))))))))))))))))))))))))))))))))',
      32,
      'Too many brackets inside one another.',
    ],
  ])('%j', (query, position, message) => {
    let error: unknown;
    try {
      parseQuery(query);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(QuerySyntaxError);
    expect(error).toMatchObject({ message, position });
  });
});

describe('checkQueryBreadth', () => {
  it.each([
    ['rust', []],
    ['"the who"', []],
    ['rust -the', []],
    ['author:spez', []],
    ['r/rust', []],
    ['rust*', []],
    ['the', ['only-stop-words']],
    ['the OR a', ['only-stop-words']],
    ['the -rust', ['only-stop-words']],
    ['*', ['lone-star']],
    ['ru*', ['short-prefix']],
    ['-hiring', ['no-positive-term']],
    ['site:reddit', ['no-positive-term']],
    ['lang:en', ['no-positive-term']],
    ['intent:question -sentiment:negative', ['no-positive-term']],
    ['rust lang:en', []],
    ['rust OR -game', ['no-positive-term']],
    ['-(a b)', ['no-positive-term']],
  ])('%s', (query, codes) => {
    expect(checkQueryBreadth(parseQuery(query)).map((problem) => problem.code)).toEqual(codes);
  });
});

describe('parseSimpleQuery (the fast path) builds what the general parser builds', () => {
  const general = (query: string): unknown => {
    try {
      return parseQueryGeneral(query);
    } catch (error) {
      return error;
    }
  };

  it.each([
    'rust',
    'Rust2024',
    '"open source"',
    '"  Open   Source "',
    '"zentrix labs"',
    'postgres OR mysql',
    'a OR b OR c',
    'rust -game',
    '-hiring rust',
    'rust -"open source"',
    'pglite vector',
    'a b OR c "d e" -f',
    '"a"b',
    'ORx orb',
    'a OR"b c"',
  ])('takes %j', (query) => {
    const fast = parseSimpleQuery(query);
    expect(fast).not.toBeNull();
    expect(fast).toEqual(general(query));
  });

  it.each([
    'node.js',
    'rust*',
    'title:rust',
    'a AND b',
    '(a OR b)',
    'OR a',
    'a OR',
    'a OR OR b',
    'rust - game',
    '--rust',
    '-OR a',
    '""',
    '"open',
    'e-mail',
    'café',
    'a\tb',
    '   ',
    '',
  ])('leaves %j to the general parser', (query) => {
    expect(parseSimpleQuery(query)).toBeNull();
  });

  it('agrees on random queries over a tricky alphabet', () => {
    const simple = fc.constantFrom('a', 'Rust', '0', 'OR', 'or', ' ', ' ', ' ', '"', '-');
    const tricky = fc.constantFrom(
      'AND',
      '  ',
      '(',
      ')',
      '*',
      ':',
      '.',
      '\t',
      '\u201c',
      'é',
      'title:',
    );
    const piece = fc.oneof({ weight: 12, arbitrary: simple }, { weight: 1, arbitrary: tricky });
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => {
        const query = pieces.join('');
        const fast = parseSimpleQuery(query);
        if (fast !== null) expect(fast).toEqual(general(query));
      }),
      { numRuns: 20_000 },
    );
  });

  it('agrees on random queries made of words, phrases, exclusions and OR', () => {
    const word = fc.constantFrom('rust', 'Go', 'c3po', 'OR', 'or', 'AND', 'ORx', 'x-y', 'é');
    const token = fc.oneof(
      { weight: 4, arbitrary: word },
      {
        weight: 2,
        arbitrary: fc.array(word, { minLength: 0, maxLength: 3 }).map((w) => `"${w.join(' ')}"`),
      },
      { weight: 2, arbitrary: word.map((w) => `-${w}`) },
      { weight: 3, arbitrary: fc.constant('OR') },
    );
    const separator = fc.constantFrom(' ', ' ', '  ', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(token, separator), { maxLength: 8 }), (parts) => {
        const query = parts.map(([t, s]) => t + s).join('');
        const fast = parseSimpleQuery(query);
        if (fast !== null) expect(fast).toEqual(general(query));
      }),
      { numRuns: 20_000 },
    );
  });
});
