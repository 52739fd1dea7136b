import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { highlightSegments } from '../../shared/highlight-segments.ts';
import { tokenizeQuery } from './query-tokens.ts';
import { relativeTime } from './relative-time.ts';
import { safeHttpUrl } from './safe-url.ts';

describe('safeHttpUrl', () => {
  test.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com', 'http://example.com/'],
    ['javascript:alert(1)', null],
    [' JavaScript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['//evil.example', null],
    ['/relative', null],
    ['', null],
    [null, null],
  ])('%s → %s', (input, expected) => {
    expect(safeHttpUrl(input)).toBe(expected);
  });
});

describe('highlightSegments', () => {
  test('cuts text at the hits', () => {
    expect(highlightSegments('I like rust a lot', [[7, 11]])).toEqual([
      { text: 'I like ', hit: false },
      { text: 'rust', hit: true },
      { text: ' a lot', hit: false },
    ]);
  });
  test('any ranges: the text comes back whole, in order', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.tuple(fc.integer({ min: -5, max: 40 }), fc.integer({ min: -5, max: 40 }))),
        (text, ranges) => {
          const segments = highlightSegments(text, ranges);
          expect(segments.map((s) => s.text).join('')).toBe(text);
          expect(segments.every((s) => s.text.length > 0)).toBe(true);
        },
      ),
    );
  });
});

describe('relativeTime', () => {
  const now = Date.parse('2026-11-24T12:00:00Z');
  test.each([
    ['2026-11-24T11:59:50Z', 'just now'],
    ['2026-11-24T11:58:00Z', '2 min ago'],
    ['2026-11-24T11:48:00Z', '12 min ago'],
    ['2026-11-24T07:00:00Z', '5 h ago'],
    ['2026-11-21T12:00:00Z', '3 d ago'],
    ['2026-03-12T12:00:00Z', '12 Mar'],
    ['2025-03-12T12:00:00Z', '12 Mar 2025'],
    ['not a date', ''],
  ])('%s → %s', (iso, expected) => {
    expect(relativeTime(iso, now)).toBe(expected);
  });
});

describe('tokenizeQuery', () => {
  test('names each part of a query', () => {
    expect(
      tokenizeQuery('"open source" OR rust* -hiring title:pglite r/rust').map((t) => [
        t.kind,
        t.text,
      ]),
    ).toEqual([
      ['phrase', '"open source"'],
      ['space', ' '],
      ['operator', 'OR'],
      ['space', ' '],
      ['prefix', 'rust*'],
      ['space', ' '],
      ['negation', '-'],
      ['word', 'hiring'],
      ['space', ' '],
      ['field', 'title:'],
      ['word', 'pglite'],
      ['space', ' '],
      ['field', 'r/rust'],
    ]);
  });
  test('never loses or adds a character', () => {
    fc.assert(
      fc.property(fc.string(), (query) => {
        expect(
          tokenizeQuery(query)
            .map((t) => t.text)
            .join(''),
        ).toBe(query);
      }),
    );
  });
});
