import { type Anchor, chooseAnchors } from './anchors.ts';
import {
  ALL_FIELDS,
  authorKey,
  communityKey,
  emitProgram,
  forEachReference,
  HAS_GAPS,
  type Interner,
  OP_AND,
  OP_META,
  OP_NOT,
  OP_OR,
  OP_PREFIX,
  OP_SITES,
  OP_TERM,
  prefixKey,
  SOURCE_BITS,
} from './compile.ts';
import { Int32Arena } from './int32-arena.ts';
import type { QueryNode, Source } from './query-ast.ts';
import { normaliseName, parseQuery } from './query-parser.ts';
import { forEachWord, normaliseGap } from './text.ts';
import { Vocabulary } from './vocabulary.ts';

export type ItemField = 'title' | 'body' | 'url';
export const ITEM_FIELDS: readonly ItemField[] = ['title', 'body', 'url'];

/** The parts of a normalised item (PRODUCT.md §2) that queries look at. */
export interface MatchableItem {
  readonly source: string;
  readonly title?: string | null;
  readonly body?: string | null;
  readonly url?: string | null;
  readonly author?: string | null;
  readonly community?: string | null;
}

/** A hit: UTF-16 offsets into the original text of one field, end exclusive. */
export interface Highlight {
  readonly field: ItemField;
  readonly start: number;
  readonly end: number;
}

export interface MonitorMatch {
  readonly monitorId: string;
  /** Every hit of the query's positive terms, by field then offset, overlaps merged. */
  readonly highlights: readonly Highlight[];
}

export interface MonitorIndexOptions {
  /** Keep only the monitors whose id hashes to `index` of `count` (see `shardOf`). */
  readonly shard?: { readonly index: number; readonly count: number };
}

export interface MonitorOptions {
  /** The sources the monitor watches; all when absent. */
  readonly sources?: readonly Source[];
}

export interface MonitorIndexStats {
  readonly monitors: number;
  readonly terms: number;
  /** Monitors verified for the last item (the presearcher's candidates). */
  readonly lastCandidates: number;
}

/** The shard (0 … count − 1) a monitor id belongs to: FNV-1a of its UTF-16 units. */
export function shardOf(id: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  }
  return (hash >>> 0) % count;
}

export function createMonitorIndex(options: MonitorIndexOptions = {}): MonitorIndex {
  return new MonitorIndex(options);
}

const SLOT_SIMPLE = 1;
const SLOT_ALWAYS = 2;
const UNKNOWN_WORD = -1;
const SENTINEL = -2;
const NO_FIELD = 3;
const PREFIX_HEADS = 1 << 16;

function headHash(word: string): number {
  return (word.charCodeAt(0) * 961 + word.charCodeAt(1) * 31 + word.charCodeAt(2)) & 0xffff;
}

function grownInt32(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let capacity = array.length * 2;
  while (capacity < needed) capacity *= 2;
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}

function grownUint8(array: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let capacity = array.length * 2;
  while (capacity < needed) capacity *= 2;
  const grown = new Uint8Array(capacity);
  grown.set(array);
  return grown;
}

function anchorKey(anchor: Anchor): string {
  switch (anchor.kind) {
    case 'word':
      return anchor.word;
    case 'prefix':
      return prefixKey(anchor.prefix);
    case 'community':
      return communityKey(anchor.name);
    case 'author':
      return authorKey(anchor.name);
  }
}

function compareHighlights(a: Highlight, b: Highlight): number {
  return ITEM_FIELDS.indexOf(a.field) - ITEM_FIELDS.indexOf(b.field) || a.start - b.start;
}

/**
 * All monitors, compiled into typed arrays, with posting lists from each monitor's anchors
 * (the rarest required term of every OR branch) to the monitor. `match` tokenizes an item once,
 * gathers the monitors anchored on its words, and verifies each against the item exactly.
 */
export class MonitorIndex {
  private readonly shard: MonitorIndexOptions['shard'];

  // Monitors live in slots; a slot's program or, for a lone word, its term id is in slotData.
  private readonly slotOf = new Map<string, number>();
  private readonly slotIds: (string | undefined)[] = [];
  private slotFlags = new Uint8Array(1024);
  private slotData = new Int32Array(1024);
  private slotStamp = new Int32Array(1024);
  private readonly freeSlots: number[] = [];
  private readonly always: number[] = [];

  private readonly terms = new Vocabulary();
  private readonly gaps = new Vocabulary();
  private readonly code = new Int32Arena();
  private readonly postings = new Int32Arena();
  private postOffset = new Int32Array(256);
  private postLength = new Int32Array(256);
  private postCapacity = new Int32Array(256);
  private termStamp = new Int32Array(256);
  private termHead = new Int32Array(256);

  private readonly prefixes = new Map<string, number>();
  private readonly prefixHeads = new Uint32Array(PREFIX_HEADS);
  private shortPrefixes = 0;
  private longestPrefix = 0;

  // Scratch state of the item being matched, reused from item to item.
  private stamp = 0;
  private posTerm = new Int32Array(1024);
  private posField = new Uint8Array(1024);
  private posStart = new Int32Array(1024);
  private posEnd = new Int32Array(1024);
  private posCount = 0;
  private occPos = new Int32Array(1024);
  private occNext = new Int32Array(1024);
  private occCount = 0;
  private present = new Int32Array(256);
  private presentCount = 0;
  private candidates = new Int32Array(256);
  private candidateCount = 0;
  private readonly fieldTexts = ['', '', ''];
  private currentField = 0;
  private itemSource = 0;

  private readonly interner: Interner = {
    term: (key) => {
      const fresh =
        key.charCodeAt(0) === 1 && key.charCodeAt(1) === 112 && !this.terms.ids.has(key);
      const id = this.terms.intern(key);
      this.ensureTermCapacity(this.terms.idLimit);
      if (fresh) this.registerPrefix(key.slice(2), id);
      return id;
    },
    gap: (text) => this.gaps.intern(text),
  };

  private readonly releaseTerm = (id: number): void => {
    const key = this.terms.release(id);
    if (key !== undefined && key.charCodeAt(0) === 1 && key.charCodeAt(1) === 112) {
      this.unregisterPrefix(key.slice(2));
    }
  };

  private readonly releaseGap = (id: number): void => {
    this.gaps.release(id);
  };

  constructor(options: MonitorIndexOptions = {}) {
    this.shard = options.shard;
  }

  get size(): number {
    return this.slotOf.size;
  }

  has(id: string): boolean {
    return this.slotOf.has(id);
  }

  /** Whether this index (shard) keeps monitor `id`. */
  owns(id: string): boolean {
    return this.shard === undefined || shardOf(id, this.shard.count) === this.shard.index;
  }

  /**
   * Adds a monitor; false when it belongs to another shard. Throws `QuerySyntaxError` for a query
   * that does not parse, and an Error when the id is already in the index.
   */
  add(id: string, query: string | QueryNode, options: MonitorOptions = {}): boolean {
    if (!this.owns(id)) return false;
    if (this.slotOf.has(id)) throw new Error(`Monitor ${id} is already in the index.`);
    this.insert(id, typeof query === 'string' ? parseQuery(query) : query, options);
    return true;
  }

  /**
   * Replaces the query of a monitor in place; false when it belongs to another shard. The query
   * is parsed first, so a bad query leaves the old one working. Throws when `id` is unknown.
   */
  update(id: string, query: string | QueryNode, options: MonitorOptions = {}): boolean {
    if (!this.owns(id)) return false;
    if (!this.slotOf.has(id)) throw new Error(`Monitor ${id} is not in the index.`);
    const ast = typeof query === 'string' ? parseQuery(query) : query;
    this.remove(id);
    this.insert(id, ast, options);
    return true;
  }

  /** Removes a monitor; false when it was not there. */
  remove(id: string): boolean {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return false;
    const flags = this.slotFlags[slot]!;
    const data = this.slotData[slot]!;
    if ((flags & SLOT_SIMPLE) !== 0) {
      this.removePosting(data, slot);
      this.releaseTerm(data);
    } else {
      const code = this.code.data;
      const anchorCount = code[data + 1]!;
      for (let i = 0; i < anchorCount; i++) this.removePosting(code[data + 2 + i]!, slot);
      if ((flags & SLOT_ALWAYS) !== 0) {
        const at = this.always.indexOf(slot);
        this.always[at] = this.always[this.always.length - 1]!;
        this.always.pop();
      }
      forEachReference(code, data + 2 + anchorCount, this.releaseTerm, this.releaseGap);
      this.code.release(data, code[data]!);
    }
    this.slotOf.delete(id);
    this.slotIds[slot] = undefined;
    this.slotFlags[slot] = 0;
    this.freeSlots.push(slot);
    return true;
  }

  stats(): MonitorIndexStats {
    return { monitors: this.size, terms: this.terms.size, lastCandidates: this.candidateCount };
  }

  /** Every monitor that matches `item`, with its hits; the order is unspecified. */
  match(item: MatchableItem): MonitorMatch[] {
    this.analyse(item);
    this.collectCandidates();
    const matches: MonitorMatch[] = [];
    const code = this.code.data;
    for (let i = 0; i < this.candidateCount; i++) {
      const slot = this.candidates[i]!;
      const data = this.slotData[slot]!;
      let ranges: number[];
      if ((this.slotFlags[slot]! & SLOT_SIMPLE) !== 0) {
        ranges = [];
        this.collectOccurrences(data, ALL_FIELDS, ranges);
      } else {
        const root = data + 2 + code[data + 1]!;
        if (!this.evaluate(code, root)) continue;
        ranges = [];
        this.collect(code, root, ranges);
      }
      matches.push({ monitorId: this.slotIds[slot]!, highlights: toHighlights(ranges) });
    }
    return matches;
  }

  private insert(id: string, ast: QueryNode, options: MonitorOptions): void {
    const slot = this.freeSlots.pop() ?? this.slotIds.length;
    if (slot === this.slotIds.length) this.slotIds.push(id);
    else this.slotIds[slot] = id;
    this.ensureSlotCapacity(slot + 1);
    this.slotOf.set(id, slot);
    this.slotStamp[slot] = 0;

    const simple =
      options.sources === undefined &&
      (ast.type === 'prefix' ||
        (ast.type === 'term' && ast.sequence.words.length === 1 && ast.sequence.gaps === null));
    if (simple) {
      const key = ast.type === 'prefix' ? prefixKey(ast.prefix) : ast.sequence.words[0]!;
      const term = this.interner.term(key);
      this.slotFlags[slot] = SLOT_SIMPLE;
      this.slotData[slot] = term;
      this.addPosting(term, slot);
      return;
    }

    const program: number[] = [];
    if (options.sources === undefined) {
      emitProgram(ast, program, this.interner);
    } else {
      let mask = 0;
      for (const source of options.sources) mask |= SOURCE_BITS[source];
      program.push(OP_AND, 0, OP_SITES, 3, mask);
      emitProgram(ast, program, this.interner);
      program[1] = program.length;
    }
    const anchorSet = chooseAnchors(ast);
    const anchors: number[] = [];
    for (const anchor of anchorSet?.anchors ?? []) {
      const term = this.terms.ids.get(anchorKey(anchor))!;
      if (!anchors.includes(term)) anchors.push(term);
    }
    const size = 2 + anchors.length + program.length;
    const offset = this.code.alloc(size);
    const code = this.code.data;
    code[offset] = size;
    code[offset + 1] = anchors.length;
    for (let i = 0; i < anchors.length; i++) code[offset + 2 + i] = anchors[i]!;
    code.set(program, offset + 2 + anchors.length);
    this.slotData[slot] = offset;
    if (anchorSet === null) {
      this.slotFlags[slot] = SLOT_ALWAYS;
      this.always.push(slot);
    } else {
      this.slotFlags[slot] = 0;
      for (const term of anchors) this.addPosting(term, slot);
    }
  }

  private addPosting(term: number, slot: number): void {
    const length = this.postLength[term]!;
    let capacity = this.postCapacity[term]!;
    if (length === capacity) {
      const previous = this.postOffset[term]!;
      capacity = capacity === 0 ? 1 : capacity * 2;
      const offset = this.postings.alloc(capacity);
      if (length > 0) {
        this.postings.data.copyWithin(offset, previous, previous + length);
        this.postings.release(previous, length);
      }
      this.postOffset[term] = offset;
      this.postCapacity[term] = capacity;
    }
    this.postings.data[this.postOffset[term]! + length] = slot;
    this.postLength[term] = length + 1;
  }

  private removePosting(term: number, slot: number): void {
    const offset = this.postOffset[term]!;
    const last = offset + this.postLength[term]! - 1;
    const data = this.postings.data;
    let at = last;
    while (at >= offset && data[at] !== slot) at--;
    if (at < offset) return;
    data[at] = data[last]!;
    this.postLength[term] = last - offset;
    if (last === offset) {
      this.postings.release(offset, this.postCapacity[term]!);
      this.postCapacity[term] = 0;
    }
  }

  private registerPrefix(prefix: string, id: number): void {
    this.prefixes.set(prefix, id);
    if (prefix.length < 3) this.shortPrefixes++;
    else this.prefixHeads[headHash(prefix)]!++;
    this.longestPrefix = Math.max(this.longestPrefix, prefix.length);
  }

  private unregisterPrefix(prefix: string): void {
    this.prefixes.delete(prefix);
    if (prefix.length < 3) this.shortPrefixes--;
    else this.prefixHeads[headHash(prefix)]!--;
  }

  private ensureTermCapacity(needed: number): void {
    if (needed <= this.postOffset.length) return;
    this.postOffset = grownInt32(this.postOffset, needed);
    this.postLength = grownInt32(this.postLength, needed);
    this.postCapacity = grownInt32(this.postCapacity, needed);
    this.termStamp = grownInt32(this.termStamp, needed);
    this.termHead = grownInt32(this.termHead, needed);
  }

  private ensureSlotCapacity(needed: number): void {
    if (needed <= this.slotData.length) return;
    this.slotFlags = grownUint8(this.slotFlags, needed);
    this.slotData = grownInt32(this.slotData, needed);
    this.slotStamp = grownInt32(this.slotStamp, needed);
  }

  // --- matching -------------------------------------------------------------------------

  private analyse(item: MatchableItem): void {
    if (++this.stamp === 0x7fffffff) {
      this.termStamp.fill(0);
      this.slotStamp.fill(0);
      this.stamp = 1;
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
      forEachWord(text, this.onWord);
      this.pushPosition(SENTINEL, NO_FIELD, 0, 0);
    }
    this.itemSource = SOURCE_BITS[item.source as Source] ?? 0;
    if (item.community) this.markMeta(communityKey(normaliseName(item.community)));
    if (item.author) this.markMeta(authorKey(normaliseName(item.author)));
  }

  private readonly onWord = (word: string, start: number, end: number): void => {
    const term = this.terms.ids.get(word);
    const position = this.pushPosition(term ?? UNKNOWN_WORD, this.currentField, start, end);
    if (term !== undefined) this.addOccurrence(term, position);
    if (this.prefixes.size > 0) this.matchPrefixes(word, position);
  };

  private pushPosition(term: number, field: number, start: number, end: number): number {
    const position = this.posCount++;
    if (position === this.posTerm.length) {
      this.posTerm = grownInt32(this.posTerm, position + 1);
      this.posField = grownUint8(this.posField, position + 1);
      this.posStart = grownInt32(this.posStart, position + 1);
      this.posEnd = grownInt32(this.posEnd, position + 1);
    }
    this.posTerm[position] = term;
    this.posField[position] = field;
    this.posStart[position] = start;
    this.posEnd[position] = end;
    return position;
  }

  private markPresent(term: number): void {
    if (this.termStamp[term] === this.stamp) return;
    this.termStamp[term] = this.stamp;
    this.termHead[term] = -1;
    if (this.presentCount === this.present.length) {
      this.present = grownInt32(this.present, this.presentCount + 1);
    }
    this.present[this.presentCount++] = term;
  }

  private addOccurrence(term: number, position: number): void {
    this.markPresent(term);
    const occurrence = this.occCount++;
    if (occurrence === this.occPos.length) {
      this.occPos = grownInt32(this.occPos, occurrence + 1);
      this.occNext = grownInt32(this.occNext, occurrence + 1);
    }
    this.occPos[occurrence] = position;
    this.occNext[occurrence] = this.termHead[term]!;
    this.termHead[term] = occurrence;
  }

  private markMeta(key: string): void {
    const term = this.terms.ids.get(key);
    if (term !== undefined) this.markPresent(term);
  }

  private matchPrefixes(word: string, position: number): void {
    const length = word.length;
    if (this.shortPrefixes > 0) {
      for (let k = 0; k <= Math.min(2, length); k++) {
        const term = this.prefixes.get(word.slice(0, k));
        if (term !== undefined) this.addOccurrence(term, position);
      }
    }
    if (length < 3 || this.prefixHeads[headHash(word)] === 0) return;
    const longest = Math.min(length, this.longestPrefix);
    for (let k = 3; k <= longest; k++) {
      const term = this.prefixes.get(k === length ? word : word.slice(0, k));
      if (term !== undefined) this.addOccurrence(term, position);
    }
  }

  private collectCandidates(): void {
    this.candidateCount = 0;
    const stamp = this.stamp;
    const postings = this.postings.data;
    for (let i = 0; i < this.presentCount; i++) {
      const term = this.present[i]!;
      const offset = this.postOffset[term]!;
      const end = offset + this.postLength[term]!;
      for (let k = offset; k < end; k++) this.addCandidate(postings[k]!, stamp);
    }
    for (const slot of this.always) this.addCandidate(slot, stamp);
  }

  private addCandidate(slot: number, stamp: number): void {
    if (this.slotStamp[slot] === stamp) return;
    this.slotStamp[slot] = stamp;
    if (this.candidateCount === this.candidates.length) {
      this.candidates = grownInt32(this.candidates, this.candidateCount + 1);
    }
    this.candidates[this.candidateCount++] = slot;
  }

  private evaluate(code: Int32Array, pc: number): boolean {
    const header = code[pc]!;
    switch (header & 15) {
      case OP_TERM:
        return this.matchTerm(code, pc, null);
      case OP_PREFIX:
        return this.hasOccurrence(code[pc + 2]!, (header >> 4) & 7);
      case OP_META:
        return this.termStamp[code[pc + 2]!] === this.stamp;
      case OP_SITES:
        return (code[pc + 2]! & this.itemSource) !== 0;
      case OP_NOT:
        return !this.evaluate(code, pc + 2);
      case OP_AND: {
        const end = pc + code[pc + 1]!;
        for (let child = pc + 2; child < end; child += code[child + 1]!) {
          if (!this.evaluate(code, child)) return false;
        }
        return true;
      }
      case OP_OR: {
        const end = pc + code[pc + 1]!;
        for (let child = pc + 2; child < end; child += code[child + 1]!) {
          if (this.evaluate(code, child)) return true;
        }
        return false;
      }
      default:
        throw new Error(`Corrupt program: op ${header & 15} at ${pc}.`);
    }
  }

  /** Pushes (field, start, end) of every hit of the positive terms below `pc`. */
  private collect(code: Int32Array, pc: number, ranges: number[]): void {
    const header = code[pc]!;
    switch (header & 15) {
      case OP_TERM:
        this.matchTerm(code, pc, ranges);
        return;
      case OP_PREFIX:
        this.collectOccurrences(code[pc + 2]!, (header >> 4) & 7, ranges);
        return;
      case OP_AND:
      case OP_OR: {
        const end = pc + code[pc + 1]!;
        for (let child = pc + 2; child < end; child += code[child + 1]!) {
          this.collect(code, child, ranges);
        }
        return;
      }
      default:
        return;
    }
  }

  private hasOccurrence(term: number, fields: number): boolean {
    if (this.termStamp[term] !== this.stamp) return false;
    if (fields === ALL_FIELDS) return true;
    for (let o = this.termHead[term]!; o >= 0; o = this.occNext[o]!) {
      if (((1 << this.posField[this.occPos[o]!]!) & fields) !== 0) return true;
    }
    return false;
  }

  private collectOccurrences(term: number, fields: number, ranges: number[]): void {
    if (this.termStamp[term] !== this.stamp) return;
    for (let o = this.termHead[term]!; o >= 0; o = this.occNext[o]!) {
      const p = this.occPos[o]!;
      const field = this.posField[p]!;
      if (((1 << field) & fields) !== 0) ranges.push(field, this.posStart[p]!, this.posEnd[p]!);
    }
  }

  /** Whether a word sequence occurs; with `ranges`, records every occurrence instead. */
  private matchTerm(code: Int32Array, pc: number, ranges: number[] | null): boolean {
    const header = code[pc]!;
    const fields = (header >> 4) & 7;
    const n = code[pc + 2]!;
    const first = code[pc + 3]!;
    const stamp = this.stamp;
    for (let i = 0; i < n; i++) if (this.termStamp[code[pc + 3 + i]!] !== stamp) return false;
    const rules = (header & HAS_GAPS) !== 0 ? pc + 3 + n : -1;
    if (n === 1 && rules < 0 && fields === ALL_FIELDS && ranges === null) return true;
    let found = false;
    for (let o = this.termHead[first]!; o >= 0; o = this.occNext[o]!) {
      const p = this.occPos[o]!;
      const field = this.posField[p]!;
      if (((1 << field) & fields) === 0) continue;
      let i = 1;
      while (i < n && this.posTerm[p + i] === code[pc + 3 + i]) i++;
      if (i < n) continue;
      if (rules >= 0 && !this.checkGaps(code, rules, p, n)) continue;
      if (ranges === null) return true;
      found = true;
      const text = this.fieldTexts[field]!;
      const lead = rules >= 0 ? this.gapLength(code[rules + 2]!) : 0;
      const trail = rules >= 0 ? this.gapLength(code[rules + 3 * n + 1]!) : 0;
      ranges.push(
        field,
        Math.max(0, this.posStart[p]! - lead),
        Math.min(text.length, this.posEnd[p + n - 1]! + trail),
      );
    }
    return found;
  }

  private gapLength(id: number): number {
    return id < 0 ? 0 : (this.gaps.keyOf(id)?.length ?? 0);
  }

  private checkGaps(code: Int32Array, rules: number, p: number, n: number): boolean {
    const text = this.fieldTexts[this.posField[p]!]!;
    for (let i = 0; i <= n; i++) {
      const exact = code[rules + 3 * i] === 1;
      const headId = code[rules + 3 * i + 1]!;
      const tailId = code[rules + 3 * i + 2]!;
      if (!exact && headId < 0 && tailId < 0) continue;
      let from: number;
      let to: number;
      let edge = false;
      if (i === 0) {
        edge = this.posTerm[p - 1] === SENTINEL;
        from = edge ? 0 : this.posEnd[p - 1]!;
        to = this.posStart[p]!;
      } else if (i === n) {
        edge = this.posTerm[p + n] === SENTINEL;
        from = this.posEnd[p + n - 1]!;
        to = edge ? text.length : this.posStart[p + n]!;
      } else {
        from = this.posEnd[p + i - 1]!;
        to = this.posStart[p + i]!;
      }
      const gap = normaliseGap(text.slice(from, Math.max(from, to)));
      const head = headId < 0 ? '' : this.gaps.keyOf(headId)!;
      if (exact) {
        if (gap !== head) return false;
        continue;
      }
      const tail = tailId < 0 ? '' : this.gaps.keyOf(tailId)!;
      if (!gap.startsWith(head) || !gap.endsWith(tail)) return false;
      if (gap.length <= head.length + tail.length && !edge) return false;
    }
    return true;
  }
}

function toHighlights(ranges: number[]): Highlight[] {
  const highlights: Highlight[] = [];
  for (let i = 0; i < ranges.length; i += 3) {
    highlights.push({
      field: ITEM_FIELDS[ranges[i]!]!,
      start: ranges[i + 1]!,
      end: ranges[i + 2]!,
    });
  }
  highlights.sort(compareHighlights);
  const merged: Highlight[] = [];
  for (const highlight of highlights) {
    const last = merged[merged.length - 1];
    if (last !== undefined && last.field === highlight.field && highlight.start <= last.end) {
      if (highlight.end > last.end) merged[merged.length - 1] = { ...last, end: highlight.end };
    } else {
      merged.push(highlight);
    }
  }
  return merged;
}
