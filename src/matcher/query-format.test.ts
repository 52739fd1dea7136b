import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { QueryNode } from './query-ast.ts';
import { formatQuery } from './query-format.ts';
import { parseQuery } from './query-parser.ts';

// Positions depend on the text, so compare the trees without them.
function withoutPositions(node: QueryNode): unknown {
  return JSON.parse(
    JSON.stringify(node, (key, value) => (key === 'start' || key === 'end' ? undefined : value)),
  );
}

const token = fc.constantFrom(
  'Rust',
  'café',
  'node.js',
  'C++',
  'c#',
  '.NET',
  '$tsla',
  'e-mail',
  'go*',
  '東京',
  '"open source"',
  '"c++ tips"',
  'site:hn',
  'r/Rust',
  'author:Bob',
  'title:go',
  'title:"show hn"',
  'intent:question',
  'sentiment:Negative',
  'lang:en',
  'language:DE',
);
const { query } = fc.letrec<{ query: string; unit: string }>((tie) => ({
  unit: fc.oneof(
    { weight: 4, arbitrary: token },
    { weight: 1, arbitrary: tie('query').map((q) => `(${q})`) },
    { weight: 1, arbitrary: token.map((t) => `-${t}`) },
    { weight: 1, arbitrary: tie('query').map((q) => `-(${q})`) },
  ),
  query: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('unit'),
    fc.tuple(tie('unit'), tie('unit')).map(([a, b]) => `${a}  ${b}`),
    fc.tuple(tie('unit'), tie('unit')).map(([a, b]) => `${a} OR ${b}`),
  ),
}));

describe('formatQuery', () => {
  it('gives text that parses back to the same query', () => {
    fc.assert(
      fc.property(query, (q) => {
        const ast = parseQuery(q);
        const text = formatQuery(ast);
        expect(withoutPositions(parseQuery(text))).toEqual(withoutPositions(ast));
        expect(formatQuery(parseQuery(text))).toBe(text);
      }),
      { numRuns: 500 },
    );
  });

  it('brackets only where precedence needs it', () => {
    expect(formatQuery(parseQuery('a (b OR c)'))).toBe('a b OR c');
    expect(formatQuery(parseQuery('(a b) OR c'))).toBe('(a b) OR c');
    expect(formatQuery(parseQuery('-(a OR b)'))).toBe('-(a OR b)');
    expect(formatQuery(parseQuery('((a))'))).toBe('a');
  });
});
