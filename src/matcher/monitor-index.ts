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
import { IntLists } from './int-lists.ts';
import { Int32Arena } from './int32-arena.ts';
import type { QueryNode, Source } from './query-ast.ts';
import { formatQuery } from './query-format.ts';
import { normaliseName, parseQuery } from './query-parser.ts';
import { TermTable } from './term-table.ts';
import { normaliseGap, scanWords, type WordVisitor } from './text.ts';
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
  /** Distinct queries: monitors with the same canonical query share one. */
  readonly queries: number;
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

const QUERY_SIMPLE = 1;
const QUERY_ALWAYS = 2;
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
 * All monitors, compiled into typed arrays. Monitors with the same canonical query share one
 * compiled query; posting lists lead from each query's anchors (the rarest required term of
 * every OR branch) to the query. `match` tokenizes an item once, gathers the queries anchored
 * on its words, verifies each exactly, and reports every monitor of each query that matched.
 */
export class MonitorIndex {
  private readonly shard: MonitorIndexOptions['shard'];

  // Monitors: monitorInfo[2m] is the query of monitor slot m, monitorInfo[2m + 1] its index
  // in that query's member list (so removal is a swap, not a scan).
  private readonly monitorSlots = new Map<string, number>();
  private readonly monitorIds: (string | undefined)[] = [];
  private monitorInfo = new Int32Array(2048);
  private readonly freeMonitors: number[] = [];

  // Queries: queryInfo[2q] is the stamp of the last item that made q a candidate;
  // queryInfo[2q + 1] packs its flags (2 bits) with its program offset or, for a lone word,
  // its term id. One array, so checking a candidate touches one cache line.
  private readonly queryIds = new Map<string, number>();
  private readonly queryKeys: (string | undefined)[] = [];
  private queryInfo = new Int32Array(2048);
  private readonly freeQueries: number[] = [];
  private readonly members = new IntLists();
  private readonly postings = new IntLists();
  private readonly always: number[] = [];

  private readonly terms = new Vocabulary();
  private readonly words = new TermTable();
  private readonly gaps = new Vocabulary();
  private readonly code = new Int32Arena();
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
      const fresh = !this.terms.ids.has(key);
      const id = this.terms.intern(key);
      if (!fresh) return id;
      this.ensureTermCapacity(this.terms.idLimit);
      if (key.charCodeAt(0) !== 1) this.words.insert(id, key);
      else if (key.charCodeAt(1) === 112) this.registerPrefix(key.slice(2), id);
      return id;
    },
    gap: (text) => this.gaps.intern(text),
  };

  private readonly releaseTerm = (id: number): void => {
    const key = this.terms.release(id);
    if (key === undefined) return;
    if (key.charCodeAt(0) !== 1) this.words.remove(id);
    else if (key.charCodeAt(1) === 112) this.unregisterPrefix(key.slice(2));
  };

  private readonly releaseGap = (id: number): void => {
    this.gaps.release(id);
  };

  constructor(options: MonitorIndexOptions = {}) {
    this.shard = options.shard;
  }

  get size(): number {
    return this.monitorSlots.size;
  }

  has(id: string): boolean {
    return this.monitorSlots.has(id);
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
    if (this.monitorSlots.has(id)) throw new Error(`Monitor ${id} is already in the index.`);
    this.insert(id, typeof query === 'string' ? parseQuery(query) : query, options);
    return true;
  }

  /**
   * Replaces the query of a monitor in place; false when it belongs to another shard. The query
   * is parsed first, so a bad query leaves the old one working. Throws when `id` is unknown.
   */
  update(id: string, query: string | QueryNode, options: MonitorOptions = {}): boolean {
    if (!this.owns(id)) return false;
    if (!this.monitorSlots.has(id)) throw new Error(`Monitor ${id} is not in the index.`);
    const ast = typeof query === 'string' ? parseQuery(query) : query;
    this.remove(id);
    this.insert(id, ast, options);
    return true;
  }

  /** Removes a monitor; false when it was not there. */
  remove(id: string): boolean {
    const monitor = this.monitorSlots.get(id);
    if (monitor === undefined) return false;
    const query = this.monitorInfo[2 * monitor]!;
    const moved = this.members.removeAt(query, this.monitorInfo[2 * monitor + 1]!);
    if (moved >= 0) this.monitorInfo[2 * moved + 1] = this.monitorInfo[2 * monitor + 1]!;
    if (this.members.lengthOf(query) === 0) this.dropQuery(query);
    this.monitorSlots.delete(id);
    this.monitorIds[monitor] = undefined;
    this.freeMonitors.push(monitor);
    return true;
  }

  stats(): MonitorIndexStats {
    return {
      monitors: this.size,
      queries: this.queryIds.size,
      terms: this.terms.size,
      lastCandidates: this.candidateCount,
    };
  }

  /**
   * Every monitor that matches `item`, with its hits; the order is unspecified. Monitors with
   * the same query share one `highlights` array.
   */
  match(item: MatchableItem): MonitorMatch[] {
    this.analyse(item);
    this.collectCandidates();
    const matches: MonitorMatch[] = [];
    const code = this.code.data;
    for (let i = 0; i < this.candidateCount; i++) {
      const query = this.candidates[i]!;
      const packed = this.queryInfo[2 * query + 1]!;
      const data = packed >> 2;
      const ranges: number[] = [];
      if ((packed & QUERY_SIMPLE) !== 0) {
        this.collectOccurrences(data, ALL_FIELDS, ranges);
      } else {
        const root = data + 2 + code[data + 1]!;
        if (!this.evaluate(code, root)) continue;
        this.collect(code, root, ranges);
      }
      const highlights = toHighlights(ranges);
      const offset = this.members.offsetOf(query);
      const end = offset + this.members.lengthOf(query);
      const list = this.members.data;
      for (let k = offset; k < end; k++) {
        matches.push({ monitorId: this.monitorIds[list[k]!]!, highlights });
      }
    }
    return matches;
  }

  private insert(id: string, ast: QueryNode, options: MonitorOptions): void {
    let sources = 0;
    for (const source of options.sources ?? []) sources |= SOURCE_BITS[source];
    const key =
      options.sources === undefined ? formatQuery(ast) : `${formatQuery(ast)}\u0000${sources}`;
    const query = this.queryIds.get(key) ?? this.createQuery(key, ast, options.sources, sources);
    const monitor = this.freeMonitors.pop() ?? this.monitorIds.length;
    if (monitor === this.monitorIds.length) this.monitorIds.push(id);
    else this.monitorIds[monitor] = id;
    if (2 * monitor + 2 > this.monitorInfo.length) {
      this.monitorInfo = grownInt32(this.monitorInfo, 2 * monitor + 2);
    }
    this.monitorSlots.set(id, monitor);
    this.monitorInfo[2 * monitor] = query;
    this.monitorInfo[2 * monitor + 1] = this.members.push(query, monitor);
  }

  private createQuery(
    key: string,
    ast: QueryNode,
    sourceList: readonly Source[] | undefined,
    sources: number,
  ): number {
    const query = this.freeQueries.pop() ?? this.queryKeys.length;
    if (query === this.queryKeys.length) this.queryKeys.push(key);
    else this.queryKeys[query] = key;
    if (2 * query + 2 > this.queryInfo.length) {
      this.queryInfo = grownInt32(this.queryInfo, 2 * query + 2);
    }
    this.queryIds.set(key, query);
    this.queryInfo[2 * query] = 0;

    const simple =
      sourceList === undefined &&
      (ast.type === 'prefix' ||
        (ast.type === 'term' && ast.sequence.words.length === 1 && ast.sequence.gaps === null));
    if (simple) {
      const term = this.interner.term(
        ast.type === 'prefix' ? prefixKey(ast.prefix) : ast.sequence.words[0]!,
      );
      this.queryInfo[2 * query + 1] = (term << 2) | QUERY_SIMPLE;
      this.postings.push(term, query);
      return query;
    }

    const program: number[] = [];
    if (sourceList === undefined) {
      emitProgram(ast, program, this.interner);
    } else {
      program.push(OP_AND, 0, OP_SITES, 3, sources);
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
    if (anchorSet === null) {
      this.queryInfo[2 * query + 1] = (offset << 2) | QUERY_ALWAYS;
      this.always.push(query);
    } else {
      this.queryInfo[2 * query + 1] = offset << 2;
      for (const term of anchors) this.postings.push(term, query);
    }
    return query;
  }

  private dropQuery(query: number): void {
    const packed = this.queryInfo[2 * query + 1]!;
    const data = packed >> 2;
    if ((packed & QUERY_SIMPLE) !== 0) {
      this.postings.remove(data, query);
      this.releaseTerm(data);
    } else {
      const code = this.code.data;
      const anchorCount = code[data + 1]!;
      for (let i = 0; i < anchorCount; i++) this.postings.remove(code[data + 2 + i]!, query);
      if ((packed & QUERY_ALWAYS) !== 0) {
        const at = this.always.indexOf(query);
        this.always[at] = this.always[this.always.length - 1]!;
        this.always.pop();
      }
      forEachReference(code, data + 2 + anchorCount, this.releaseTerm, this.releaseGap);
      this.code.release(data, code[data]!);
    }
    this.queryIds.delete(this.queryKeys[query]!);
    this.queryKeys[query] = undefined;
    this.queryInfo[2 * query + 1] = 0;
    this.freeQueries.push(query);
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
    this.termStamp = grownInt32(this.termStamp, needed);
    this.termHead = grownInt32(this.termHead, needed);
  }

  // --- matching -------------------------------------------------------------------------

  private analyse(item: MatchableItem): void {
    if (++this.stamp === 0x7fffffff) {
      this.termStamp.fill(0);
      for (let i = 0; i < this.queryInfo.length; i += 2) this.queryInfo[i] = 0;
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
      scanWords(text, this.visitor);
      this.pushPosition(SENTINEL, NO_FIELD, 0, 0);
    }
    this.itemSource = SOURCE_BITS[item.source as Source] ?? 0;
    if (item.community) this.markMeta(communityKey(normaliseName(item.community)));
    if (item.author) this.markMeta(authorKey(normaliseName(item.author)));
  }

  private readonly visitor: WordVisitor = {
    asciiWord: (text, start, end, hash) => {
      const term = this.words.findAscii(text, start, end, hash);
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      if (this.prefixes.size > 0 && this.mayHavePrefix(text, start, end)) {
        this.matchPrefixes(text.slice(start, end).toLowerCase(), position);
      }
    },
    word: (word, start, end) => {
      const term = this.words.find(word);
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      if (this.prefixes.size > 0) this.matchPrefixes(word, position);
    },
  };

  private mayHavePrefix(text: string, start: number, end: number): boolean {
    if (this.shortPrefixes > 0) return true;
    if (end - start < 3) return false;
    let hash = 0;
    for (let i = start; i < start + 3; i++) {
      const code = text.charCodeAt(i);
      hash = hash * 31 + (code >= 65 && code <= 90 ? code + 32 : code);
    }
    return this.prefixHeads[hash & 0xffff] !== 0;
  }

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
      const offset = this.postings.offsetOf(term);
      const end = offset + this.postings.lengthOf(term);
      for (let k = offset; k < end; k++) this.addCandidate(postings[k]!, stamp);
    }
    for (const query of this.always) this.addCandidate(query, stamp);
  }

  private addCandidate(query: number, stamp: number): void {
    if (this.queryInfo[2 * query] === stamp) return;
    this.queryInfo[2 * query] = stamp;
    if (this.candidateCount === this.candidates.length) {
      this.candidates = grownInt32(this.candidates, this.candidateCount + 1);
    }
    this.candidates[this.candidateCount++] = query;
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

// Occurrence lists run backwards (newest first), so ranges usually arrive in reverse order.
function toHighlights(ranges: number[]): Highlight[] {
  const highlights: Highlight[] = [];
  let ascending = true;
  let descending = true;
  for (let i = 0; i < ranges.length; i += 3) {
    const highlight: Highlight = {
      field: ITEM_FIELDS[ranges[i]!]!,
      start: ranges[i + 1]!,
      end: ranges[i + 2]!,
    };
    if (i > 0) {
      const order = ranges[i]! - ranges[i - 3]! || ranges[i + 1]! - ranges[i - 2]!;
      if (order < 0) ascending = false;
      if (order > 0) descending = false;
    }
    highlights.push(highlight);
  }
  if (!ascending) {
    if (descending) highlights.reverse();
    else highlights.sort(compareHighlights);
  }
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
