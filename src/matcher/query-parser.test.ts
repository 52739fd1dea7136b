import { describe, expect, it } from 'vitest';
import { checkQueryBreadth } from './query-check.ts';
import { formatQuery } from './query-format.ts';
import { parseQuery, QuerySyntaxError } from './query-parser.ts';

const canonical = (query: string) => formatQuery(parseQuery(query));

describe('parseQuery: every row of the syntax table (PRODUCT.md §3)', () => {
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
    ['subreddit', 'subreddit:Rust async', 'subreddit:rust async'],
    ['r/ alias', 'r/rust async', 'subreddit:rust async'],
    ['negated subreddit', 'rust -subreddit:playrust', 'rust -subreddit:playrust'],
    ['author', 'author:PG', 'author:pg'],
    ['negated author', 'rust -author:AutoModerator', 'rust -author:automoderator'],
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
      'Unknown site \u201cmyspace\u201d: use site:hackernews, site:reddit, site:lobsters.',
    ],
    ['site: rust', 0, 'Write a name right after site:, like site:reddit.'],
    ['author:', 0, 'Write a name right after author:, like author:pg.'],
    ['r/', 0, 'Write a name right after r/, like r/rust.'],
    ['title: rust', 0, 'Write the word right after title:, like title:rust.'],
    [
      'title:(rust site:reddit)',
      0,
      'title: can only hold words, not site:, subreddit: or author:.',
    ],
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
    ['rust OR -game', ['no-positive-term']],
    ['-(a b)', ['no-positive-term']],
  ])('%s', (query, codes) => {
    expect(checkQueryBreadth(parseQuery(query)).map((problem) => problem.code)).toEqual(codes);
  });
});
