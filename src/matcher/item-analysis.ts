// Reading one item: its words into a position table, the terms it holds into a small table of
// their occurrences, its community and author when some monitor filters on them. Candidates are
// gathered from what this records (monitor-index.ts) and verified against it (verify.ts); nothing
// later reads the item's text again but the few characters of punctuation a gap rule looks at.

import { authorKey, communityKey, SOURCE_BITS, signalKey } from './compile.ts';
import type { IntLists } from './int-lists.ts';
import type { MatchableItem } from './monitor-index.ts';
import { EMPTY } from './open-hash-index.ts';
import { gateKey, type PrefixGate } from './prefix-gate.ts';
import type { Source } from './query-ast.ts';
import { normaliseName } from './query-parser.ts';
import { grownInt32, grownUint8, KEY_STRING, T_KEY, TERM } from './records.ts';
import { AsciiWords, hashWord, nextHash, scanWords, type WordVisitor } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

/** The position-table term of the bounds of a field (no word stands next to it across them). */
export const SENTINEL = -2;
const NO_FIELD = 3;

/** How an item's subreddit or author becomes a term key, and the hash of that key's prefix. */
interface NameKey {
  readonly key: (name: string) => string;
  readonly seed: number;
}
const nameKey = (key: (name: string) => string): NameKey => ({ key, seed: hashWord(key('')) });
const COMMUNITY_KEY = nameKey(communityKey);
const AUTHOR_KEY = nameKey(authorKey);

// The keys of the few values signals take (7 intents, 3 sentiments, some 60 languages), built
// once each rather than once per item.
const SIGNAL_KEYS = new Map<string, Map<string, string>>();
function cachedSignalKey(signal: string, value: string): string {
  let keys = SIGNAL_KEYS.get(signal);
  if (!keys) {
    keys = new Map();
    SIGNAL_KEYS.set(signal, keys);
  }
  const cached = keys.get(value);
  if (cached !== undefined) return cached;
  const key = signalKey(signal, value);
  if (keys.size < 256) keys.set(value, key);
  return key;
}

/** Whether `key` is the lower case of `text[start, end)` (ASCII letters and digits). */
function sameAsciiLowerCase(text: string, start: number, end: number, key: string): boolean {
  if (key.length !== end - start) return false;
  for (let k = 0; k < key.length; k++) {
    let code = text.charCodeAt(start + k);
    if (code >= 65 && code <= 90) code += 32;
    if (code !== key.charCodeAt(k)) return false;
  }
  return true;
}

/**
 * The scratch state of the item being matched, reused from item to item. Its tables are read
 * directly by candidate collection and verification (`posTerm`, `occNext`, `present`, …); only
 * the methods here write them.
 */
export class ItemAnalysis {
  // One entry per word of the item, fields separated by SENTINEL entries: the word's term (or
  // -1), its field (0 title, 1 body, 2 url) and its UTF-16 bounds in the field's text.
  posTerm = new Int32Array(1024);
  posField = new Uint8Array(1024);
  posStart = new Int32Array(1024);
  posEnd = new Int32Array(1024);
  posCount = 0;
  // Occurrence lists: occPos[o] is a position, occNext[o] the term's next occurrence (or -1).
  occPos = new Int32Array(1024);
  occNext = new Int32Array(1024);
  private occCount = 0;
  // The terms the item holds: a small open-addressing table (term → head of its occurrence
  // list) that stays in L1, so checking a term the item lacks costs no cache miss.
  private presentKeys = new Int32Array(64).fill(-1);
  presentHeads = new Int32Array(64);
  private presentShift = 26;
  /** The terms the item holds, in the order they were found. */
  present = new Int32Array(32);
  presentCount = 0;
  readonly fieldTexts = ['', '', ''];
  itemSource = 0;
  // How many terms are a community's or an author's (kept by the index): an item's names are
  // read (cold memory) only when some monitor filters on that kind of name.
  communityTerms = 0;
  authorTerms = 0;
  // How many terms are a signal's (`intent:question`): an item's signals are marked only then.
  signalTerms = 0;
  namesMarked = false;

  private currentField = 0;
  // The item being matched, for markNames; null between items.
  private item: MatchableItem | null = null;
  private readonly asciiWords = new AsciiWords();

  private readonly terms: Vocabulary;
  private readonly postings: IntLists;
  private readonly gate: PrefixGate;

  constructor(terms: Vocabulary, postings: IntLists, gate: PrefixGate) {
    this.terms = terms;
    this.postings = postings;
    this.gate = gate;
  }

  /** Forgets the last item and records the words of `item`; its names wait for `markNames`. */
  analyse(item: MatchableItem): void {
    // Emptied in reverse order of insertion, so each key's probe path is intact when it goes.
    for (let i = this.presentCount - 1; i >= 0; i--) {
      this.presentKeys[this.slotOf(this.present[i]!)] = -1;
    }
    this.posCount = 0;
    this.occCount = 0;
    this.presentCount = 0;
    this.pushPosition(SENTINEL, NO_FIELD, 0, 0);
    this.fieldTexts[0] = item.title ?? '';
    this.fieldTexts[1] = item.body ?? '';
    this.fieldTexts[2] = item.url ?? '';
    for (let field = 0; field < 3; field++) {
      const text = this.fieldTexts[field]!;
      if (text.length === 0) continue;
      this.currentField = field;
      this.scanField(text, field);
      this.pushPosition(SENTINEL, NO_FIELD, 0, 0);
    }
    this.itemSource = SOURCE_BITS[item.source as Source] ?? 0;
    this.item = item;
    this.namesMarked = false;
  }

  /** Drops the reference to the item once its matches are reported. */
  release(): void {
    this.item = null;
  }

  /**
   * Marks the terms of the item's community and author, once per item: before its candidates
   * are collected while some posting needs them, else when verification first asks. An item's
   * names are memory no other step reads, so skipping them saves a cache miss or two an item.
   */
  markNames(): void {
    this.namesMarked = true;
    const item = this.item!;
    if (this.communityTerms > 0 && item.community) this.markName(COMMUNITY_KEY, item.community);
    if (this.authorTerms > 0 && item.author) this.markName(AUTHOR_KEY, item.author);
    if (this.signalTerms > 0) this.markSignals(item);
  }

  /** Marks the terms of the item's intents, sentiment and language that some monitor uses. */
  private markSignals(item: MatchableItem): void {
    for (const intent of item.intents ?? []) this.markKey(cachedSignalKey('intent', intent));
    if (item.sentiment) this.markKey(cachedSignalKey('sentiment', item.sentiment));
    if (item.language) this.markKey(cachedSignalKey('lang', item.language));
  }

  /** The slot of `term` in the present table, or -1 when the item does not hold it. */
  slotOf(term: number): number {
    const keys = this.presentKeys;
    const mask = keys.length - 1;
    for (let at = Math.imul(term, 0x9e3779b1) >>> this.presentShift; ; at = (at + 1) & mask) {
      const key = keys[at]!;
      if (key === term) return at;
      if (key < 0) return -1;
    }
  }

  isPresent(term: number): boolean {
    return this.slotOf(term) >= 0;
  }

  /** The head of the occurrence list of `term` in the item, or -1. */
  headOf(term: number): number {
    const slot = this.slotOf(term);
    return slot < 0 ? -1 : this.presentHeads[slot]!;
  }

  addOccurrence(term: number, position: number): void {
    const slot = this.markPresent(term);
    const occurrence = this.occCount++;
    if (occurrence === this.occPos.length) {
      this.occPos = grownInt32(this.occPos, occurrence + 1);
      this.occNext = grownInt32(this.occNext, occurrence + 1);
    }
    this.occPos[occurrence] = position;
    this.occNext[occurrence] = this.presentHeads[slot]!;
    this.presentHeads[slot] = occurrence;
  }

  /**
   * Records the words of one field: stretches of plain ASCII through `AsciiWords` and the words
   * around a character above ASCII through `scanWords` (the visitor below), in text order.
   */
  private scanField(text: string, field: number): void {
    const length = text.length;
    let from = 0;
    while (from < length) {
      const words = this.asciiWords.scan(text, from);
      if (words > 0) this.recordAsciiWords(text, field, words);
      from = this.asciiWords.stop;
      if (from < length) from = scanWords(text, this.visitor, this.gate.shortest, from, true);
    }
  }

  /** The positions of the words `asciiWords` just found, as the visitor's `asciiWord` records one. */
  private recordAsciiWords(text: string, field: number, words: number): void {
    const { bounds, hashes } = this.asciiWords;
    let position = this.posCount;
    this.reservePositions(words);
    const { posTerm, posStart, posEnd } = this;
    this.posField.fill(field, position, position + words);
    const gate = this.gate;
    const prefixLength = gate.count > 0 ? gate.shortest : -1;
    const gated = gate.onePrefixes === 0;
    const bits = gate.bits;
    const termIndex = this.terms.table.index;
    for (let k = 0; k < words; k++, position++) {
      const start = bounds[2 * k]!;
      const end = bounds[2 * k + 1]!;
      const hash = hashes[k]!;
      const term = termIndex.mayContain(hash) ? this.findAsciiTerm(text, start, end, hash) : -1;
      posTerm[position] = term;
      posStart[position] = start;
      posEnd[position] = end;
      if (term >= 0) this.addOccurrence(term, position);
      if (prefixLength < 0) continue;
      if (gated) {
        // A word of one or two letters repeats its last (at worst a wasted probe); arithmetic,
        // not Math.min or a test, picks the characters, which measured faster.
        const short = (end - start - 2) >>> 31;
        const second = start + 1 - short;
        const third = start + 2 - short - ((end - start - 3) >>> 31);
        const key = gateKey(
          text.charCodeAt(start),
          text.charCodeAt(second),
          text.charCodeAt(third),
        );
        if ((bits[key >>> 5]! & (1 << (key & 31))) === 0) continue;
      }
      const prefixHash = end - start > prefixLength ? gate.headHash(text, start, end) : hash;
      if (gate.heads.mayContain(prefixHash)) {
        gate.match(text, start, end, prefixHash, position, this);
      }
    }
    this.posCount = position;
  }

  private readonly visitor: WordVisitor = {
    asciiWord: (text, start, end, hash, prefixHash) => {
      const term = this.terms.table.index.mayContain(hash)
        ? this.findAsciiTerm(text, start, end, hash)
        : -1;
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      const gate = this.gate;
      if (gate.count > 0 && gate.heads.mayContain(prefixHash)) {
        gate.match(text, start, end, prefixHash, position, this);
      }
    },
    word: (word, start, end) => {
      const term = this.terms.find(word);
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      const gate = this.gate;
      if (gate.count > 0) {
        const prefixHash = gate.headHash(word, 0, word.length);
        if (gate.heads.mayContain(prefixHash)) {
          gate.match(word, 0, word.length, prefixHash, position, this);
        }
      }
    },
  };

  /**
   * The term id of the lower case of `text[start, end)` (ASCII letters and digits), or -1. The
   * caller probes the term filter first (`mayContain`), in its own loop, so the words no monitor
   * uses (most) cost no call.
   */
  private findAsciiTerm(text: string, start: number, end: number, hash: number): number {
    const { buckets, mask } = this.terms.table.index;
    const meta = this.postings.meta;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = buckets[2 * at]!;
      if (id === EMPTY) return -1;
      if (id < 0 || buckets[2 * at + 1] !== hash) continue;
      const key = TERM * id + T_KEY;
      const keyLength = meta[key]!;
      if (keyLength === KEY_STRING) {
        if (sameAsciiLowerCase(text, start, end, this.terms.keyOf(id)!)) return id;
        continue;
      }
      if (keyLength !== length) continue;
      let k = 0;
      while (k < length) {
        let code = text.charCodeAt(start + k);
        if (code >= 65 && code <= 90) code += 32;
        if (code !== ((meta[key + 1 + (k >> 2)]! >>> (8 * (k & 3))) & 255)) break;
        k++;
      }
      if (k === length) return id;
    }
  }

  /** Room in the position table for `count` positions from `posCount` on. */
  private reservePositions(count: number): void {
    const needed = this.posCount + count;
    if (needed <= this.posTerm.length) return;
    this.posTerm = grownInt32(this.posTerm, needed);
    this.posField = grownUint8(this.posField, needed);
    this.posStart = grownInt32(this.posStart, needed);
    this.posEnd = grownInt32(this.posEnd, needed);
  }

  private pushPosition(term: number, field: number, start: number, end: number): number {
    this.reservePositions(1);
    const position = this.posCount++;
    this.posTerm[position] = term;
    this.posField[position] = field;
    this.posStart[position] = start;
    this.posEnd[position] = end;
    return position;
  }

  /** The slot of `term`, added to the present table (with no occurrence) if new. */
  private markPresent(term: number): number {
    const keys = this.presentKeys;
    const mask = keys.length - 1;
    let at = Math.imul(term, 0x9e3779b1) >>> this.presentShift;
    for (; ; at = (at + 1) & mask) {
      const key = keys[at]!;
      if (key === term) return at;
      if (key < 0) break;
    }
    if (2 * (this.presentCount + 1) > keys.length) {
      this.growPresent();
      return this.markPresent(term);
    }
    keys[at] = term;
    this.presentHeads[at] = -1;
    if (this.presentCount === this.present.length) {
      this.present = grownInt32(this.present, this.presentCount + 1);
    }
    this.present[this.presentCount++] = term;
    return at;
  }

  private growPresent(): void {
    const keys = this.presentKeys;
    const heads = this.presentHeads;
    const count = this.presentCount;
    const terms = this.present.slice(0, count);
    const termHeads = terms.map((term) => heads[this.slotOf(term)]!);
    this.presentKeys = new Int32Array(2 * keys.length).fill(-1);
    this.presentHeads = new Int32Array(2 * keys.length);
    this.presentShift--;
    this.presentCount = 0;
    for (let i = 0; i < count; i++) this.presentHeads[this.markPresent(terms[i]!)] = termHeads[i]!;
  }

  /**
   * Marks the term of `communityKey` / `authorKey` of `name` (normalised) when a monitor uses it.
   * A printable ASCII name is hashed as that key without building it, so the names no filter
   * names (nearly all) cost a filter probe and no allocation.
   */
  private markName(nameKey: NameKey, name: string): void {
    let hash = nameKey.seed;
    for (let i = 0; i < name.length; i++) {
      const code = name.charCodeAt(i);
      if (code < 0x20 || code > 0x7e) {
        this.markKey(nameKey.key(normaliseName(name)));
        return;
      }
      hash = nextHash(hash, code);
    }
    if (this.terms.table.index.mayContain(hash)) this.markKey(nameKey.key(name.toLowerCase()));
  }

  private markKey(key: string): void {
    const term = this.terms.find(key);
    if (term >= 0) this.markPresent(term);
  }
}
