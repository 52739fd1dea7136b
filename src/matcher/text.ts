// The text model of docs/product.md, "The query language": a word is a maximal run of Unicode
// letters, digits and combining marks; its searchable form is NFKC, case folded and diacritic
// folded. Words are found on the original string so that offsets always point into the text the
// user sees.

/** Called once per word: its normalised form and its UTF-16 range in the original string. */
export type WordSink = (word: string, start: number, end: number) => void;

const WORD_CHAR = /[\p{L}\p{N}\p{M}]/uy;
// Invisible characters that do not split a word: "e\u00ADmail" (soft hyphen) is "email".
const IGNORABLE = /[\u00ad\u200b-\u200d\u2060\ufeff]/gu;
const NO_SPACE_SCRIPT =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
// Diacritics of Latin, Greek and Cyrillic, Hebrew points, Arabic harakat, variation selectors
// and enclosing keycaps. Marks of Indic scripts are letters' vowels, so they stay.
const DIACRITIC =
  // biome-ignore lint/suspicious/noMisleadingCharacterClass: ranges of lone marks, removed one by one
  /[\u0300-\u036f\u0591-\u05c7\u064b-\u065f\u0670\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe00-\ufe0f\ufe20-\ufe2f]/gu;
const FOLDED_LETTER = /[ßæœøłđðþıς]/gu;
const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ς: 'σ',
};
const WORD_RUN = /[\p{L}\p{N}\p{M}]+/gu;
// Any UTF-16 unit above ASCII, surrogates included (no u flag on purpose).
const NON_ASCII = /[\u0080-\uffff]/;
// Curly apostrophes and Unicode hyphens read as the ASCII ones users type (`don't`, `e-mail`).
const GAP_FOLD = /[\u2018\u2019\u201b\u2032\u2010\u2011\u2212]/gu;
const GAP_FOLDS: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u2010': '-',
  '\u2011': '-',
  '\u2212': '-',
};

let segmenter: Intl.Segmenter | undefined;

const replaceFolded = (letter: string): string => FOLDED_LETTERS[letter] ?? letter;
const replaceGapFold = (char: string): string => GAP_FOLDS[char] ?? char;

/** For ASCII: the lower case of a letter or digit, 0 for the rest. */
const ASCII_FOLD = new Uint8Array(128);
for (let c = 48; c <= 57; c++) ASCII_FOLD[c] = c;
for (let c = 97; c <= 122; c++) ASCII_FOLD[c] = c;
for (let c = 65; c <= 90; c++) ASCII_FOLD[c] = c + 32;

/** Whether `code` is an ASCII letter or digit, a character of the words `AsciiWords` finds. */
export function isAsciiWordCode(code: number): boolean {
  return code < 128 && ASCII_FOLD[code] !== 0;
}

/** The searchable form of one word run: NFKC, case folded, diacritics folded. */
export function normaliseWordText(run: string): string {
  let s = run.normalize('NFKC').toLowerCase();
  if (!NON_ASCII.test(s)) return s;
  s = s.replace(IGNORABLE, '').normalize('NFD').replace(DIACRITIC, '');
  return s.replace(FOLDED_LETTER, replaceFolded).normalize('NFC');
}

/** The comparable form of the punctuation between words (`.` of node.js, `++` of c++). */
export function normaliseGap(gap: string): string {
  if (!NON_ASCII.test(gap)) return gap;
  return gap.normalize('NFKC').replace(GAP_FOLD, replaceGapFold).toLowerCase();
}

function isWordCodePoint(text: string, index: number): boolean {
  WORD_CHAR.lastIndex = index;
  return WORD_CHAR.test(text);
}

function isIgnorable(code: number): boolean {
  return code === 0xad || (code >= 0x200b && code <= 0x200d) || code === 0x2060 || code === 0xfeff;
}

// A run holding non-ASCII characters: segment scripts without spaces, normalise, and split
// again where NFKC produced a separator (rare: "㍻" → "平成" stays, "⑴" → "(1)" splits).
function emitComplexRun(text: string, start: number, end: number, visitor: WordVisitor): void {
  const run = text.slice(start, end);
  if (NO_SPACE_SCRIPT.test(run)) {
    segmenter ??= new Intl.Segmenter(undefined, { granularity: 'word' });
    for (const segment of segmenter.segment(run)) {
      if (segment.isWordLike !== true) continue;
      const segmentStart = start + segment.index;
      emitNormalised(segment.segment, segmentStart, segmentStart + segment.segment.length, visitor);
    }
    return;
  }
  emitNormalised(run, start, end, visitor);
}

function emitNormalised(run: string, start: number, end: number, visitor: WordVisitor): void {
  const word = normaliseWordText(run);
  if (word.length === 0) return;
  WORD_RUN.lastIndex = 0;
  const first = WORD_RUN.exec(word);
  if (first !== null && first[0].length === word.length) {
    visitor.word(word, start, end);
    return;
  }
  for (const part of word.match(WORD_RUN) ?? []) visitor.word(part, start, end);
}

/** Receives the words of a text, in order (see `scanWords`). */
export interface WordVisitor {
  /**
   * A run of ASCII letters and digits, not yet lower-cased; `hash` is `hashWord` of its lower
   * case, `prefixHash` that of its first `prefixLength` letters (see `scanWords`), or of all of
   * them when it is shorter.
   */
  asciiWord(text: string, start: number, end: number, hash: number, prefixHash: number): void;
  /** A word that went through Unicode normalisation. */
  word(word: string, start: number, end: number): void;
}

export const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** One FNV-1a step over a character, lower-cased when it is an ASCII capital, as `hashWord` of a lower-cased word steps. */
export function nextHash(hash: number, code: number): number {
  return Math.imul(hash ^ (code >= 65 && code <= 90 ? code + 32 : code), FNV_PRIME);
}

/** FNV-1a over UTF-16 units; `scanWords` computes the same value on the fly for ASCII words. */
export function hashWord(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
  return hash | 0;
}

/**
 * Visits every word of `text`. Plain ASCII runs take a fast path that allocates nothing (a table
 * lookup and a hash step per character); anything else goes through Unicode normalisation.
 * `prefixLength` asks for the hash of each ASCII word's first letters too (prefix queries).
 *
 * From `from`, and with `untilAscii`, it stops at the first ASCII character after `from` that
 * begins no word of what it has visited, and returns where it stopped (`text.length` at the end):
 * the slow path between two stretches of `AsciiWords`.
 */
export function scanWords(
  text: string,
  visitor: WordVisitor,
  prefixLength = 0,
  from = 0,
  untilAscii = false,
): number {
  const length = text.length;
  let i = from;
  while (i < length) {
    let code = text.charCodeAt(i);
    if (code < 128) {
      if (untilAscii && i > from) return i;
      if (ASCII_FOLD[code] === 0) {
        i++;
        continue;
      }
    } else if (!isWordCodePoint(text, i)) {
      i += code >= 0xd800 && code <= 0xdbff && i + 1 < length ? 2 : 1;
      continue;
    }
    // A run starts at i. Its ASCII letters and digits are hashed as they come: first up to
    // `prefixLength` of them, then the rest.
    const start = i;
    let hash = FNV_OFFSET;
    const prefixEnd = Math.min(length, start + prefixLength);
    while (i < prefixEnd) {
      code = text.charCodeAt(i);
      const folded = code < 128 ? ASCII_FOLD[code]! : 0;
      if (folded === 0) break;
      hash = Math.imul(hash ^ folded, FNV_PRIME);
      i++;
    }
    const prefixHash = hash;
    if (i === prefixEnd) {
      while (i < length) {
        code = text.charCodeAt(i);
        const folded = code < 128 ? ASCII_FOLD[code]! : 0;
        if (folded === 0) break;
        hash = Math.imul(hash ^ folded, FNV_PRIME);
        i++;
      }
    }
    // Stopped at the end, at ASCII punctuation or at a character above ASCII: the run goes on
    // if that is a letter, digit or mark (or an invisible one inside a word), and is then
    // normalised as a whole.
    if (i < length && code >= 128 && (isWordCodePoint(text, i) || isIgnorable(code))) {
      while (i < length) {
        code = text.charCodeAt(i);
        if (code < 128) {
          if (ASCII_FOLD[code] === 0) break;
          i++;
        } else if (isWordCodePoint(text, i) || isIgnorable(code)) {
          i += code >= 0xd800 && code <= 0xdbff && i + 1 < length ? 2 : 1;
        } else break;
      }
      emitComplexRun(text, start, i, visitor);
    } else {
      visitor.asciiWord(text, start, i, hash, prefixHash);
    }
  }
  return length;
}

/**
 * No-break space and the general punctuation block (U+2000–U+205E: spaces, dashes, curly quotes,
 * ellipsis, bidirectional marks) but for the zero-width characters that do not split a word
 * (U+200B–U+200D, see IGNORABLE): neither letters, digits nor marks, so they end a word as ASCII
 * punctuation does (`scanWords` reads them so too; the gap between two words keeps them as they
 * are, for `normaliseGap`).
 */
export function isSeparatorAboveAscii(code: number): boolean {
  return code === 0xa0 || (code >= 0x2000 && code <= 0x205e && (code < 0x200b || code > 0x200d));
}

/**
 * The words of plain ASCII text without a branch per word: a run of ASCII letters and digits is
 * found with arithmetic instead of tests, so the word boundaries, which a branch predictor misses
 * (a few dozen in an item), cost nothing extra. Faster than `scanWords` on plain text; the
 * matcher uses it and `scanWords` for what it leaves.
 */
export class AsciiWords {
  /** Word k is `[bounds[2k], bounds[2k + 1])` of the text. */
  bounds = new Int32Array(1024);
  /** `hashWord` of the lower case of word k. */
  hashes = new Int32Array(512);
  /** Where the last `scan` stopped: the text's length, or the first character it left. */
  stop = 0;

  /**
   * Finds the words of `text` from `from` (which must not be inside a word) up to its end or to
   * the first character above ASCII but for the separators of `isSeparatorAboveAscii`, leaving
   * out a word that runs into that character (it may go on with letters `scanWords` must
   * normalise). Returns the number of words found.
   */
  scan(text: string, from: number): number {
    const length = text.length;
    if (length - from + 2 > this.bounds.length) {
      this.bounds = new Int32Array(2 * (length - from + 2));
      this.hashes = new Int32Array(length - from + 2);
    }
    const bounds = this.bounds;
    const hashes = this.hashes;
    // `count` counts word boundaries: odd inside a word. Every character stores its index as the
    // next boundary and moves on only when it is one; the running hash restarts outside words.
    let count = 0;
    let inWord = 0;
    let hash = FNV_OFFSET;
    let i = from;
    for (;;) {
      // Four characters a step while all four are ASCII, so the loop's own overhead is paid once
      // for four; the same stores in the same order as the one-character loop below.
      for (const last = length - 3; i < last; i += 4) {
        const c0 = text.charCodeAt(i);
        const c1 = text.charCodeAt(i + 1);
        const c2 = text.charCodeAt(i + 2);
        const c3 = text.charCodeAt(i + 3);
        if ((c0 | c1 | c2 | c3) >= 128) break;
        const f0 = ASCII_FOLD[c0]!;
        const f1 = ASCII_FOLD[c1]!;
        const f2 = ASCII_FOLD[c2]!;
        const f3 = ASCII_FOLD[c3]!;
        const w0 = (f0 + 127) >> 7;
        const w1 = (f1 + 127) >> 7;
        const w2 = (f2 + 127) >> 7;
        const w3 = (f3 + 127) >> 7;
        bounds[count] = i;
        count += w0 ^ inWord;
        let mask = -w0;
        hash = (Math.imul(hash ^ f0, FNV_PRIME) & mask) | (FNV_OFFSET & ~mask);
        hashes[count >> 1] = hash;
        bounds[count] = i + 1;
        count += w1 ^ w0;
        mask = -w1;
        hash = (Math.imul(hash ^ f1, FNV_PRIME) & mask) | (FNV_OFFSET & ~mask);
        hashes[count >> 1] = hash;
        bounds[count] = i + 2;
        count += w2 ^ w1;
        mask = -w2;
        hash = (Math.imul(hash ^ f2, FNV_PRIME) & mask) | (FNV_OFFSET & ~mask);
        hashes[count >> 1] = hash;
        bounds[count] = i + 3;
        count += w3 ^ w2;
        mask = -w3;
        hash = (Math.imul(hash ^ f3, FNV_PRIME) & mask) | (FNV_OFFSET & ~mask);
        hashes[count >> 1] = hash;
        inWord = w3;
      }
      // One character at a time: the last three, or the four that held one above ASCII. Curly
      // quotes, dashes and other general punctuation (nearly all the characters above ASCII in
      // English text) separate words here as ASCII punctuation does; any other stops the scan.
      const stop = Math.min(length, i + 4);
      for (; i < stop; i++) {
        const code = text.charCodeAt(i);
        if (code >= 128 && !isSeparatorAboveAscii(code)) break;
        const folded = code < 128 ? ASCII_FOLD[code]! : 0;
        const isWord = (folded + 127) >> 7;
        bounds[count] = i;
        count += isWord ^ inWord;
        const mask = -isWord;
        hash = (Math.imul(hash ^ folded, FNV_PRIME) & mask) | (FNV_OFFSET & ~mask);
        hashes[count >> 1] = hash;
        inWord = isWord;
      }
      if (i < stop || i >= length) break;
    }
    if (i < length && inWord === 1) {
      count--;
      i = bounds[count]!;
    } else if (inWord === 1) {
      bounds[count++] = i;
    }
    this.stop = i;
    return count >> 1;
  }
}

/** Calls `sink` for every word of `text` with its normalised form. */
export function forEachWord(text: string, sink: WordSink): void {
  scanWords(text, {
    asciiWord: (source, start, end) => sink(source.slice(start, end).toLowerCase(), start, end),
    word: sink,
  });
}

/** A word with its range in the original string. */
export interface Word {
  readonly text: string;
  readonly start: number;
  readonly end: number;
}

/** The words of `text`; a convenience over `forEachWord` for callers off the hot path. */
export function listWords(text: string): Word[] {
  const words: Word[] = [];
  forEachWord(text, (word, start, end) => {
    words.push({ text: word, start, end });
  });
  return words;
}
