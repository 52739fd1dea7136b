import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AsciiWords,
  hashWord,
  isSeparatorAboveAscii,
  listWords,
  normaliseGap,
  normaliseWordText,
  scanWords,
} from './text.ts';

const words = (text: string) => listWords(text).map((word) => word.text);

describe('listWords', () => {
  it.each([
    ['possessive', "Reddit's new API", ['reddit', 's', 'new', 'api']],
    ['curly possessive', 'Rust\u2019s borrow checker', ['rust', 's', 'borrow', 'checker']],
    ['hyphenation', 'Conde-Nast e-mail', ['conde', 'nast', 'e', 'mail']],
    ['soft hyphen inside a word', 'e\u00admail', ['email']],
    ['underscore separates', 'reddit_user', ['reddit', 'user']],
    [
      'inner punctuation tokens',
      'node.js c++ c# .net $TSLA',
      ['node', 'js', 'c', 'c', 'net', 'tsla'],
    ],
    ['diacritics folded', 'Condé Nast, naïve Ångström', ['conde', 'nast', 'naive', 'angstrom']],
    ['case folded', 'RUST Rust rust', ['rust', 'rust', 'rust']],
    ['German sharp s', 'Straße STRASSE', ['strasse', 'strasse']],
    ['NFKC full-width and ligatures', 'Ｒｕｓｔ ﬁle', ['rust', 'file']],
    ['combining marks composed', 'Cafe\u0301', ['cafe']],
    ['Greek final sigma', 'ΟΔΟΣ οδος', ['οδοσ', 'οδοσ']],
    ['Cyrillic', 'Привет мир', ['привет', 'мир']],
    ['Chinese is segmented', '我喜欢Rust编程', ['我', '喜欢', 'rust', '编', '程']],
    ['Japanese is segmented', '東京都に行きます', ['東京', '都', 'に', '行き', 'ます']],
    ['Thai is segmented', 'ภาษาไทยง่าย', ['ภาษา', 'ไทย', 'ง่าย']],
    ['emoji separate words', 'rust🚀launch 👨‍💻dev', ['rust', 'launch', 'dev']],
    ['keycap digits keep the digit', '1\ufe0f\u20e3 place', ['1', 'place']],
    [
      'URL',
      'https://www.Example.com/a_b?q=1',
      ['https', 'www', 'example', 'com', 'a', 'b', 'q', '1'],
    ],
    ['decoded entities', 'AT&T <b> "quoted"', ['at', 't', 'b', 'quoted']],
    ['digits', 'Python 3.12 in 2024', ['python', '3', '12', 'in', '2024']],
    ['empty', '', []],
    ['only punctuation', '... --- !!!', []],
  ])('%s', (_, text, expected) => {
    expect(words(text)).toEqual(expected);
  });

  it('keeps UTF-16 offsets into the original text', () => {
    const text = 'Condé 🚀 Nast’s';
    const found = listWords(text);
    expect(found.map((word) => text.slice(word.start, word.end))).toEqual(['Condé', 'Nast', 's']);
  });

  it('reads a 1 MB item', () => {
    const text = 'the quick brown fox jumps over the lazy dog. '.repeat(23_302);
    expect(text.length).toBeGreaterThan(1_000_000);
    const found = listWords(text);
    expect(found).toHaveLength(9 * 23_302);
    expect(found.at(-1)).toEqual({ text: 'dog', start: text.length - 5, end: text.length - 2 });
  });
});

describe('normalisation', () => {
  it('folds a word as the query side does', () => {
    expect(normaliseWordText('ÉCOLE')).toBe('ecole');
    expect(normaliseWordText('İstanbul')).toBe('istanbul');
  });

  it('reads curly apostrophes and Unicode hyphens as ASCII in gaps', () => {
    expect(normaliseGap('\u2019')).toBe("'");
    expect(normaliseGap('\u2011')).toBe('-');
    expect(normaliseGap('\uff0e')).toBe('.');
  });
});

describe('scanWords', () => {
  // Runs of letters, digits and marks; an invisible character (soft hyphen, zero-width) inside
  // a run does not end it; a run of marks alone folds to nothing and is no word.
  const RUN = /[\p{L}\p{N}\p{M}][\p{L}\p{N}\p{M}\u00ad\u200b-\u200d\u2060\ufeff]*/gu;

  const PIECE = fc.constantFrom(
    'a',
    'Zb',
    '09',
    ' ',
    '. ',
    '-',
    'é',
    '\u00ad',
    '\u200b',
    '𝐀',
    '😀',
    'ß',
    '\u0301',
    '’',
    '“',
    '\u2014',
    '\u00a0',
    '\u200d',
    '\u2060',
    'x',
    'yz',
  );

  it('finds the runs a regular expression finds, with the hashes of their ASCII words', () => {
    fc.assert(
      fc.property(
        fc.array(PIECE, { maxLength: 14 }),
        fc.integer({ min: 0, max: 5 }),
        (pieces, prefixLength) => {
          const text = pieces.join('');
          const seen: [number, number][] = [];
          scanWords(
            text,
            {
              asciiWord: (source, start, end, hash, prefixHash) => {
                const word = source.slice(start, end).toLowerCase();
                expect(hash).toBe(hashWord(word));
                expect(prefixHash).toBe(hashWord(word.slice(0, prefixLength)));
                seen.push([start, end]);
              },
              word: (_, start, end) => {
                if (seen.at(-1)?.[0] !== start) seen.push([start, end]);
              },
            },
            prefixLength,
          );
          const expected = [...text.matchAll(RUN)]
            .filter((m) => normaliseWordText(m[0]) !== '')
            .map((m): [number, number] => [m.index, m.index + m[0].length]);
          expect(seen).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
  it('lets AsciiWords read past only characters that scanWords finds in no word', () => {
    const separators: string[] = [];
    for (let code = 0x80; code <= 0xffff; code++) {
      if (!isSeparatorAboveAscii(code)) continue;
      const char = String.fromCharCode(code);
      separators.push(char);
      expect(/[\p{L}\p{N}\p{M}\u00ad\u200b-\u200d\u2060\ufeff]/u.test(char)).toBe(false);
      expect(listWords(`rust${char}lang`).map((word) => word.text)).toEqual(['rust', 'lang']);
    }
    expect(separators).toContain('\u2019');
    expect(separators).toContain('\u00a0');
    expect(separators).not.toContain('\u200b');
  });

  it('gives the same words when AsciiWords takes the stretches of plain ASCII', () => {
    // The way the matcher reads a field: AsciiWords up to a character above ASCII, scanWords
    // from there to the next ASCII character, and so on.
    type Seen = [string, number, number, number];
    const visitor = (seen: Seen[]) => ({
      asciiWord: (_: string, start: number, end: number, hash: number) => {
        seen.push(['ascii', start, end, hash]);
      },
      word: (word: string, start: number, end: number) => {
        seen.push([word, start, end, 0]);
      },
    });
    const ascii = new AsciiWords();
    fc.assert(
      fc.property(fc.array(PIECE, { maxLength: 20 }), fc.nat(3), (pieces, prefixLength) => {
        const text = pieces.join('');
        const expected: Seen[] = [];
        scanWords(text, visitor(expected), prefixLength);
        const seen: Seen[] = [];
        let from = 0;
        while (from < text.length) {
          const count = ascii.scan(text, from);
          for (let k = 0; k < count; k++) {
            seen.push(['ascii', ascii.bounds[2 * k]!, ascii.bounds[2 * k + 1]!, ascii.hashes[k]!]);
          }
          from = ascii.stop;
          if (from < text.length) {
            const next = scanWords(text, visitor(seen), prefixLength, from, true);
            expect(next).toBeGreaterThan(from);
            from = next;
          }
        }
        expect(seen).toEqual(expected);
      }),
      { numRuns: 3000 },
    );
  });
});
