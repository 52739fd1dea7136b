import { type Anchor, chooseAnchors, chooseGuard } from './anchors.ts';
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
import { EMPTY, OpenHashIndex } from './open-hash-index.ts';
import type { QueryNode, Source } from './query-ast.ts';
import { normaliseName, parseQuery } from './query-parser.ts';
import { StringTable } from './string-table.ts';
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

const FNV_OFFSET = 0x811c9dc5 | 0;

/** One FNV-1a step over a lower-cased character, as `hashWord` and `scanWords` hash. */
function nextHash(hash: number, code: number): number {
  return Math.imul(hash ^ (code >= 65 && code <= 90 ? code + 32 : code), 0x01000193);
}

function hashInts(values: readonly number[]): number {
  let hash = 0x811c9dc5;
  for (const value of values) hash = Math.imul(hash ^ value, 0x01000193);
  return hash;
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
  private readonly monitors = new StringTable();
  private monitorInfo = new Int32Array(2048);
  private readonly freeMonitors: number[] = [];
  private nextMonitor = 0;
  private monitorCount = 0;

  // Queries: queryInfo[2q] is the stamp of the last item that made q a candidate;
  // queryInfo[2q + 1] packs its flags (2 bits) with its program offset or, for a lone word,
  // its term id. One array, so checking a candidate touches one cache line. A lone-word query
  // is found again by its term (simpleQueries), any other by the hash of its program.
  private queryInfo = new Int32Array(2048);
  private readonly freeQueries: number[] = [];
  private nextQuery = 0;
  private queryCount = 0;
  private simpleQueries = new Int32Array(256).fill(-1);
  private readonly programs = new OpenHashIndex();
  // The ids of each query's monitors, side by side: reporting a popular query's matches reads
  // one array instead of one random slot per monitor.
  private readonly members: (string[] | undefined)[] = [];
  // Posting lists: term → (query anchored on it, guard) pairs. The guard is a second term the
  // query needs (or -1), checked before the query's program is read.
  private readonly postings = new IntLists(2);
  private readonly always: number[] = [];

  private readonly terms = new Vocabulary();
  private readonly gaps = new Vocabulary();
  private readonly code = new Int32Arena();
  // termState[2t] is the stamp of the last item holding term t, termState[2t + 1] the head of
  // its occurrence list in that item.
  private termState = new Int32Array(512);

  // Prefix terms by their prefix, probed with the running hash of each word's first letters.
  private readonly prefixes = new StringTable();
  private prefixCount = 0;
  private shortestPrefix = 0;
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
  private readonly ranges: number[] = [];

  private readonly interner: Interner = {
    term: (key) => {
      const id = this.terms.intern(key);
      if (this.terms.references(id) > 1) return id;
      this.ensureTermCapacity(this.terms.idLimit);
      if (key.charCodeAt(0) === 1 && key.charCodeAt(1) === 112)
        this.registerPrefix(key.slice(2), id);
      return id;
    },
    gap: (text) => this.gaps.intern(text),
  };

  private readonly releaseTerm = (id: number): void => {
    const key = this.terms.release(id);
    if (key?.charCodeAt(0) === 1 && key.charCodeAt(1) === 112) this.unregisterPrefix(id);
  };

  private readonly releaseGap = (id: number): void => {
    this.gaps.release(id);
  };

  constructor(options: MonitorIndexOptions = {}) {
    this.shard = options.shard;
  }

  get size(): number {
    return this.monitorCount;
  }

  has(id: string): boolean {
    return this.monitors.find(id) >= 0;
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
    if (this.has(id)) throw new Error(`Monitor ${id} is already in the index.`);
    this.insert(id, typeof query === 'string' ? parseQuery(query) : query, options);
    return true;
  }

  /**
   * Replaces the query of a monitor in place; false when it belongs to another shard. The query
   * is parsed first, so a bad query leaves the old one working. Throws when `id` is unknown.
   */
  update(id: string, query: string | QueryNode, options: MonitorOptions = {}): boolean {
    if (!this.owns(id)) return false;
    if (!this.has(id)) throw new Error(`Monitor ${id} is not in the index.`);
    const ast = typeof query === 'string' ? parseQuery(query) : query;
    this.remove(id);
    this.insert(id, ast, options);
    return true;
  }

  /** Removes a monitor; false when it was not there. */
  remove(id: string): boolean {
    const monitor = this.monitors.find(id);
    if (monitor < 0) return false;
    const query = this.monitorInfo[2 * monitor]!;
    const ids = this.members[query]!;
    const index = this.monitorInfo[2 * monitor + 1]!;
    const last = ids.pop()!;
    if (index < ids.length) {
      ids[index] = last;
      this.monitorInfo[2 * this.monitors.find(last) + 1] = index;
    }
    if (ids.length === 0) {
      this.members[query] = undefined;
      this.dropQuery(query);
    }
    this.monitors.remove(monitor);
    this.freeMonitors.push(monitor);
    this.monitorCount--;
    return true;
  }

  stats(): MonitorIndexStats {
    return {
      monitors: this.size,
      queries: this.queryCount,
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
      const ranges = this.ranges;
      ranges.length = 0;
      if ((packed & QUERY_SIMPLE) !== 0) {
        this.collectOccurrences(data, ALL_FIELDS, ranges);
      } else {
        const root = data + 2 + code[data + 1]!;
        if (!this.evaluate(code, root)) continue;
        this.collect(code, root, ranges);
      }
      const highlights = toHighlights(ranges);
      for (const monitorId of this.members[query]!) matches.push({ monitorId, highlights });
    }
    return matches;
  }

  private insert(id: string, ast: QueryNode, options: MonitorOptions): void {
    const query = this.findOrCreateQuery(ast, options.sources);
    const monitor = this.freeMonitors.pop() ?? this.nextMonitor++;
    this.monitorInfo = grownInt32(this.monitorInfo, 2 * monitor + 2);
    this.monitors.insert(monitor, id);
    this.monitorCount++;
    this.monitorInfo[2 * monitor] = query;
    const ids = this.members[query];
    if (ids === undefined) {
      while (this.members.length <= query) this.members.push(undefined);
      this.members[query] = [id];
      this.monitorInfo[2 * monitor + 1] = 0;
    } else {
      this.monitorInfo[2 * monitor + 1] = ids.push(id) - 1;
    }
  }

  private newQuery(packed: number): number {
    const query = this.freeQueries.pop() ?? this.nextQuery++;
    this.queryInfo = grownInt32(this.queryInfo, 2 * query + 2);
    this.queryInfo[2 * query] = 0;
    this.queryInfo[2 * query + 1] = packed;
    this.queryCount++;
    return query;
  }

  private findOrCreateQuery(ast: QueryNode, sourceList: readonly Source[] | undefined): number {
    const simple =
      sourceList === undefined &&
      (ast.type === 'prefix' ||
        (ast.type === 'term' && ast.sequence.words.length === 1 && ast.sequence.gaps === null));
    if (simple) {
      const term = this.interner.term(
        ast.type === 'prefix' ? prefixKey(ast.prefix) : ast.sequence.words[0]!,
      );
      const existing = this.simpleQueries[term]!;
      if (existing >= 0) {
        this.releaseTerm(term);
        return existing;
      }
      const query = this.newQuery((term << 2) | QUERY_SIMPLE);
      this.simpleQueries[term] = query;
      this.addPosting(term, query, -1);
      return query;
    }

    const program: number[] = [];
    if (sourceList === undefined) {
      emitProgram(ast, program, this.interner);
    } else {
      let sources = 0;
      for (const source of sourceList) sources |= SOURCE_BITS[source];
      program.push(OP_AND, 0, OP_SITES, 3, sources);
      emitProgram(ast, program, this.interner);
      program[1] = program.length;
    }
    const hash = hashInts(program);
    const existing = this.findProgram(program, hash);
    if (existing >= 0) {
      forEachReference(Int32Array.from(program), 0, this.releaseTerm, this.releaseGap);
      return existing;
    }
    const anchorSet = chooseAnchors(ast);
    const anchors: number[] = [];
    for (const anchor of anchorSet?.anchors ?? []) {
      const term = this.terms.find(anchorKey(anchor));
      if (!anchors.includes(term)) anchors.push(term);
    }
    const size = 2 + anchors.length + program.length;
    const offset = this.code.alloc(size);
    const code = this.code.data;
    code[offset] = size;
    code[offset + 1] = anchors.length;
    for (let i = 0; i < anchors.length; i++) code[offset + 2 + i] = anchors[i]!;
    code.set(program, offset + 2 + anchors.length);
    const query = this.newQuery((offset << 2) | (anchorSet === null ? QUERY_ALWAYS : 0));
    this.programs.insert(query, hash);
    if (anchorSet === null) this.always.push(query);
    else if (anchors.length === 1) {
      const guard = chooseGuard(ast, anchorSet!.anchors[0]!);
      this.addPosting(anchors[0]!, query, guard === null ? -1 : this.terms.find(anchorKey(guard)));
    } else for (const term of anchors) this.addPosting(term, query, -1);
    return query;
  }

  /** The query whose stored program equals `program`, or -1. */
  private findProgram(program: readonly number[], hash: number): number {
    const { buckets, mask } = this.programs;
    const code = this.code.data;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const query = buckets[2 * at]!;
      if (query === EMPTY) return -1;
      if (query < 0 || buckets[2 * at + 1] !== hash) continue;
      const data = this.queryInfo[2 * query + 1]! >> 2;
      const root = data + 2 + code[data + 1]!;
      if (code[data]! - (root - data) !== program.length) continue;
      let i = 0;
      while (i < program.length && code[root + i] === program[i]) i++;
      if (i === program.length) return query;
    }
  }

  private dropQuery(query: number): void {
    const packed = this.queryInfo[2 * query + 1]!;
    const data = packed >> 2;
    if ((packed & QUERY_SIMPLE) !== 0) {
      this.simpleQueries[data] = -1;
      this.removePosting(data, query);
      this.releaseTerm(data);
    } else {
      const code = this.code.data;
      const anchorCount = code[data + 1]!;
      for (let i = 0; i < anchorCount; i++) this.removePosting(code[data + 2 + i]!, query);
      if ((packed & QUERY_ALWAYS) !== 0) {
        const at = this.always.indexOf(query);
        this.always[at] = this.always[this.always.length - 1]!;
        this.always.pop();
      }
      this.programs.remove(query);
      forEachReference(code, data + 2 + anchorCount, this.releaseTerm, this.releaseGap);
      this.code.release(data, code[data]!);
    }
    this.queryInfo[2 * query + 1] = 0;
    this.freeQueries.push(query);
    this.queryCount--;
  }

  private addPosting(term: number, query: number, guard: number): void {
    this.postings.push(term, query, guard);
  }

  private removePosting(term: number, query: number): void {
    this.postings.removeAt(term, this.postings.indexOf(term, query));
  }

  private registerPrefix(prefix: string, id: number): void {
    this.prefixes.insert(id, prefix);
    this.shortestPrefix =
      this.prefixCount === 0 ? prefix.length : Math.min(this.shortestPrefix, prefix.length);
    this.longestPrefix = Math.max(this.longestPrefix, prefix.length);
    this.prefixCount++;
  }

  // The shortest and longest bounds only widen; they stay correct, if loose, after removals.
  private unregisterPrefix(id: number): void {
    this.prefixes.remove(id);
    this.prefixCount--;
  }

  private ensureTermCapacity(needed: number): void {
    this.termState = grownInt32(this.termState, 2 * needed);
    if (needed > this.simpleQueries.length) {
      const previous = this.simpleQueries.length;
      this.simpleQueries = grownInt32(this.simpleQueries, needed);
      this.simpleQueries.fill(-1, previous);
    }
  }

  // --- matching -------------------------------------------------------------------------

  private analyse(item: MatchableItem): void {
    if (++this.stamp === 0x7fffffff) {
      for (let i = 0; i < this.termState.length; i += 2) this.termState[i] = 0;
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
      const term = this.terms.table.findAscii(text, start, end, hash);
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      if (this.prefixCount > 0) this.matchPrefixes(text, start, end, position);
    },
    word: (word, start, end) => {
      const term = this.terms.find(word);
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      if (this.prefixCount > 0) this.matchPrefixes(word, 0, word.length, position);
    },
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
    if (this.termState[2 * term] === this.stamp) return;
    this.termState[2 * term] = this.stamp;
    this.termState[2 * term + 1] = -1;
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
    this.occNext[occurrence] = this.termState[2 * term + 1]!;
    this.termState[2 * term + 1] = occurrence;
  }

  private markMeta(key: string): void {
    const term = this.terms.find(key);
    if (term >= 0) this.markPresent(term);
  }

  /** Records `position` under every prefix term that `text[start, end)` (lower-cased) starts with. */
  private matchPrefixes(text: string, start: number, end: number, position: number): void {
    const longest = Math.min(end - start, this.longestPrefix);
    let hash = FNV_OFFSET;
    for (let k = 0; k < this.shortestPrefix; k++) hash = nextHash(hash, text.charCodeAt(start + k));
    for (let k = this.shortestPrefix; k <= longest; k++) {
      if (k > this.shortestPrefix) hash = nextHash(hash, text.charCodeAt(start + k - 1));
      const term = this.prefixes.findAscii(text, start, start + k, hash);
      if (term >= 0) this.addOccurrence(term, position);
    }
  }

  private collectCandidates(): void {
    this.candidateCount = 0;
    const stamp = this.stamp;
    const postings = this.postings.data;
    const termState = this.termState;
    for (let i = 0; i < this.presentCount; i++) {
      const term = this.present[i]!;
      const offset = this.postings.offsetOf(term);
      const end = offset + 2 * this.postings.lengthOf(term);
      for (let k = offset; k < end; k += 2) {
        const guard = postings[k + 1]!;
        if (guard < 0 || termState[2 * guard] === stamp) this.addCandidate(postings[k]!, stamp);
      }
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
        return this.termState[2 * code[pc + 2]!] === this.stamp;
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
    if (this.termState[2 * term] !== this.stamp) return false;
    if (fields === ALL_FIELDS) return true;
    for (let o = this.termState[2 * term + 1]!; o >= 0; o = this.occNext[o]!) {
      if (((1 << this.posField[this.occPos[o]!]!) & fields) !== 0) return true;
    }
    return false;
  }

  private collectOccurrences(term: number, fields: number, ranges: number[]): void {
    if (this.termState[2 * term] !== this.stamp) return;
    for (let o = this.termState[2 * term + 1]!; o >= 0; o = this.occNext[o]!) {
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
    for (let i = 0; i < n; i++) if (this.termState[2 * code[pc + 3 + i]!] !== stamp) return false;
    const rules = (header & HAS_GAPS) !== 0 ? pc + 3 + n : -1;
    if (n === 1 && rules < 0 && fields === ALL_FIELDS && ranges === null) return true;
    let found = false;
    for (let o = this.termState[2 * first + 1]!; o >= 0; o = this.occNext[o]!) {
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

// Occurrence lists run backwards (newest first), so ranges usually arrive in reverse order;
// then one pass builds the merged highlights, and only a mixed order needs a sort.
function toHighlights(ranges: number[]): Highlight[] {
  const count = ranges.length / 3;
  let ascending = true;
  let descending = true;
  for (let i = 3; i < ranges.length; i += 3) {
    const order = ranges[i]! - ranges[i - 3]! || ranges[i + 1]! - ranges[i - 2]!;
    if (order < 0) ascending = false;
    else if (order > 0) descending = false;
  }
  let order: number[] | null = null;
  if (!ascending && !descending) {
    order = Array.from({ length: count }, (_, i) => 3 * i);
    order.sort((a, b) => ranges[a]! - ranges[b]! || ranges[a + 1]! - ranges[b + 1]!);
  }
  const merged: Highlight[] = [];
  let field = -1;
  let start = 0;
  let end = 0;
  for (let n = 0; n < count; n++) {
    const at = order !== null ? order[n]! : ascending ? 3 * n : 3 * (count - 1 - n);
    const nextField = ranges[at]!;
    const nextStart = ranges[at + 1]!;
    const nextEnd = ranges[at + 2]!;
    if (nextField === field && nextStart <= end) {
      if (nextEnd > end) end = nextEnd;
      continue;
    }
    if (field >= 0) merged.push({ field: ITEM_FIELDS[field]!, start, end });
    field = nextField;
    start = nextStart;
    end = nextEnd;
  }
  if (field >= 0) merged.push({ field: ITEM_FIELDS[field]!, start, end });
  return merged;
}
