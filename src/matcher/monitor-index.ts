import { type Anchor, chooseAnchors, chooseGuard } from './anchors.ts';
import {
  ALL_FIELDS,
  authorKey,
  communityKey,
  emitProgram,
  emitRestricted,
  forEachReference,
  HAS_GAPS,
  type Interner,
  keyKind,
  nodeSize,
  OP_AND,
  OP_META,
  OP_NOT,
  OP_OR,
  OP_PREFIX,
  OP_SITES,
  OP_TERM,
  prefixKey,
  SOURCE_BITS,
  termWords,
} from './compile.ts';
import { IntLists } from './int-lists.ts';
import { Int32Arena } from './int32-arena.ts';
import { blockCapacity, MemberLists } from './member-lists.ts';
import { EMPTY, OpenHashIndex } from './open-hash-index.ts';
import type { QueryNode, Source } from './query-ast.ts';
import { normaliseName, parseQuery } from './query-parser.ts';
import { StringTable } from './string-table.ts';
import {
  AsciiWords,
  hashWord,
  isAsciiWordCode,
  normaliseGap,
  scanWords,
  type WordVisitor,
} from './text.ts';
import { Vocabulary } from './vocabulary.ts';

export type ItemField = 'title' | 'body' | 'url';
export const ITEM_FIELDS: readonly ItemField[] = ['title', 'body', 'url'];

/** The parts of a normalised item (docs/product.md, "Sources") that queries look at. */
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

/** One monitor of a bulk load (`addMany`). */
export interface MonitorEntry extends MonitorOptions {
  readonly id: string;
  readonly query: string | QueryNode;
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

// Query records: REC ints per query, one cache line, holding everything `match` reads about a
// candidate: the stamp that dedupes it, its flags, where its member ids are, and its program
// inline when that fits (almost always; otherwise in the `code` arena).
const REC = 16;
const R_STAMP = 0;
const R_FLAGS = 1;
const R_MEMBERS = 2;
const R_COUNT = 3;
const R_CAPACITY = 4;
/** Offset in `code` of a program too long to be inline. */
const R_PROGRAM = 5;
/** The term of a SIMPLE or one-anchor query; for MULTI, the offset of [n, terms…] in `code`. */
const R_ANCHOR = 6;
const R_CODE = 8;
const INLINE_INTS = REC - R_CODE;

/** A lone word or prefix, on every source: matched by its term alone, no program. */
const F_SIMPLE = 1;
/** No anchor: verified on every item. */
const F_ALWAYS = 2;
/** Several anchors (OR): its posting entries are stored as ~query and deduped by stamp. */
const F_MULTI = 4;
const F_INLINE = 8;

// Term records: the posting list of term t sits at postings.meta[TERM · t …] as [offset, length,
// capacity], followed by 1 + its lone-word query (0: none) and its key when that is up to
// KEY_CHARS ASCII characters: [length, 4 characters a word × 3]. A word of an item is then found
// and its key checked in the line that also leads to its postings.
const TERM = 8;
const T_SIMPLE = 3;
const T_KEY = 4;
const KEY_CHARS = 12;
/** T_KEY of a term whose key is compared as a string (long, not ASCII, or a prefix/meta key). */
const KEY_STRING = -1;

const SENTINEL = -2;
const NO_FIELD = 3;
/** Highlight arrays remembered per item to share between queries with the same hits. */
const MEMO = 16;

const FNV_OFFSET = 0x811c9dc5 | 0;

/** One FNV-1a step over a lower-cased character, as `hashWord` and `scanWords` hash. */
function nextHash(hash: number, code: number): number {
  return Math.imul(hash ^ (code >= 65 && code <= 90 ? code + 32 : code), 0x01000193);
}

/**
 * The prefix gate's key of a word that starts with the ASCII letters or digits a, b, c: their
 * low five bits each (a letter of either case alike; digits share keys with letters, which only
 * wastes a probe), so 15 bits.
 */
const GATE_KEYS = 1 << 15;
const gateKey = (a: number, b: number, c: number): number =>
  ((a & 31) << 10) | ((b & 31) << 5) | (c & 31);

/** How an item's subreddit or author becomes a term key, and the hash of that key's prefix. */
interface NameKey {
  readonly key: (name: string) => string;
  readonly seed: number;
}
const nameKey = (key: (name: string) => string): NameKey => ({ key, seed: hashWord(key('')) });
const COMMUNITY_KEY = nameKey(communityKey);
const AUTHOR_KEY = nameKey(authorKey);

function hashInts(values: readonly number[]): number {
  let hash = 0x811c9dc5;
  for (const value of values) hash = Math.imul(hash ^ value, 0x01000193);
  return hash;
}

/** `hashInts` of the program at `code[pc]`. */
function hashCode(code: Int32Array, pc: number): number {
  let hash = 0x811c9dc5;
  const end = pc + nodeSize(code[pc]!);
  for (let i = pc; i < end; i++) hash = Math.imul(hash ^ code[i]!, 0x01000193);
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
  // in that query's member block (so removal is a swap, not a scan).
  private readonly monitors = new StringTable();
  private monitorInfo = new Int32Array(2048);
  private readonly freeMonitors: number[] = [];
  private nextMonitor = 0;
  private monitorCount = 0;

  // Queries: one record of REC ints each (see R_…). A lone-word query is found again by its
  // term (the `extra` int of the term's posting list), any other by the hash of its program.
  private records = new Int32Array(REC * 256);
  private readonly freeQueries: number[] = [];
  private nextQuery = 0;
  private queryCount = 0;
  private programs = new OpenHashIndex();
  private members = new MemberLists();
  // Posting lists: term → (query anchored on it, guard) pairs. The guard is a second term the
  // query needs (or -1), checked before the query's record is read. The list's meta is the
  // term's record (TERM above), so a present term leads to its lone-word query directly.
  private readonly postings = new IntLists(TERM);
  private readonly always: number[] = [];

  private readonly terms = new Vocabulary(true);
  private readonly gaps = new Vocabulary();
  private readonly code = new Int32Arena();
  private scratchProgram: number[] = [];
  private scratchCode = new Int32Array(64);

  // Prefix terms by their prefix, probed with the running hash of each word's first letters.
  private readonly prefixes = new StringTable();
  // The hashes of the prefix terms' first `shortestPrefix` characters, under the terms' ids: a
  // word that starts otherwise (nearly every word) skips the prefix lookups (one filter probe).
  private prefixHeads = new OpenHashIndex(true);
  // Whether a prefix term may begin an ASCII word by the `gateKey` of its first three letters or
  // digits (a word of one or two repeats its last), one bit a key, read for every word (4 KB),
  // and how many prefix terms each open key has (few, touched only by changes). A word whose key
  // is closed skips even the hash (9.4% of the recorded words passed a gate of two letters at
  // 10 k monitors, 0.8% pass this one). Prefixes of one character keep it open.
  private readonly tripleGate = new Int32Array(GATE_KEYS >>> 5);
  private readonly tripleCounts = new Map<number, number>();
  private onePrefixes = 0;
  // How many terms are a community's or an author's: an item's names are read (cold memory, 5%
  // of an item's time) only when some monitor filters on that kind of name.
  private communityTerms = 0;
  private authorTerms = 0;
  // How many posting entries lead from a community or author term or are guarded by one: while
  // there are any, an item's names are marked before its candidates are collected; otherwise
  // only when a candidate's program first asks for one (OP_META), and for most items never.
  private namePostings = 0;
  private namesMarked = false;
  // The item being matched, for markNames; null between calls of `match`.
  private item: MatchableItem | null = null;
  private readonly asciiWords = new AsciiWords();
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
  // The terms the item holds: a small open-addressing table (term → head of its occurrence
  // list) that stays in L1, so checking a term the item lacks costs no cache miss.
  private presentKeys = new Int32Array(64).fill(-1);
  private presentHeads = new Int32Array(64);
  private presentShift = 26;
  private present = new Int32Array(32);
  private presentCount = 0;
  private candidates = new Int32Array(256);
  private candidateCount = 0;
  private matchedQueries = new Int32Array(256);
  // Overwritten item after item, never emptied (emptying a JS array drops its storage).
  private readonly matchedHighlights: Highlight[][] = [];
  private readonly fieldTexts = ['', '', ''];
  private currentField = 0;
  private itemSource = 0;
  // The hits of the query being reported: (field, start, end) triples.
  private ranges = new Int32Array(96);
  private rangeCount = 0;
  // The hits of the highlights remembered for this item (see highlightsOf).
  private rangeLog = new Int32Array(384);
  private rangeLogCount = 0;
  private readonly memoStart = new Int32Array(MEMO);
  private readonly memoLength = new Int32Array(MEMO);
  private readonly memoHighlights: Highlight[][] = [];
  private memoCount = 0;

  // The keys the interner was given for the query being compiled, and their ids, so its
  // anchors and guard are found again without hashing and probing the vocabulary twice.
  private readonly internedKeys: string[] = [];
  private readonly internedIds: number[] = [];
  private internedCount = 0;

  private readonly interner: Interner = {
    term: (key) => {
      const id = this.terms.intern(key);
      this.internedKeys[this.internedCount] = key;
      this.internedIds[this.internedCount++] = id;
      if (this.terms.references(id) > 1) return id;
      this.postings.ensure(this.terms.idLimit);
      this.storeKey(id, key);
      this.countKey(key, id, 1);
      return id;
    },
    gap: (text) => this.gaps.intern(text),
  };

  private readonly releaseTerm = (id: number): void => {
    const key = this.terms.release(id);
    if (key !== undefined) this.countKey(key, id, -1);
  };

  private readonly releaseGap = (id: number): void => {
    this.gaps.release(id);
  };

  constructor(options: MonitorIndexOptions = {}) {
    this.shard = options.shard;
  }

  /** Keeps the prefix terms and the counts of name terms as a term of `key` comes or goes. */
  private countKey(key: string, id: number, delta: 1 | -1): void {
    switch (keyKind(key)) {
      case 'prefix':
        if (delta > 0) this.registerPrefix(key.slice(2), id);
        else this.unregisterPrefix(id);
        break;
      case 'community':
        this.communityTerms += delta;
        break;
      case 'author':
        this.authorTerms += delta;
        break;
    }
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
    const monitor = this.claimMonitor(id);
    try {
      this.addMember(this.queryOf(query, options), id, monitor);
    } catch (error) {
      this.releaseMonitor(monitor);
      throw error;
    }
    return true;
  }

  /**
   * Adds many monitors, as `add` does one by one (and throwing as it does), then lays the queries
   * out again so that the queries of each posting list, and their members' ids, sit side by side:
   * matching an item then reads a few runs of memory instead of a line per candidate. The way to
   * load the monitors at start; later adds and removes keep the layout mostly intact. Returns
   * how many monitors this index (shard) kept.
   */
  addMany(monitors: readonly MonitorEntry[]): number {
    this.monitors.reserve(monitors.length);
    this.monitorInfo = grownInt32(this.monitorInfo, 2 * (this.nextMonitor + monitors.length));
    // At most one query per monitor; `relayout` trims what is left unused.
    this.records = grownInt32(this.records, REC * (this.nextQuery + monitors.length));
    let kept = 0;
    try {
      for (const monitor of monitors) {
        if (this.add(monitor.id, monitor.query, monitor)) kept++;
      }
    } finally {
      this.relayout();
    }
    return kept;
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
    this.addMember(this.queryOf(ast, options), id, this.claimMonitor(id));
    return true;
  }

  /** Removes a monitor; false when it was not there. */
  remove(id: string): boolean {
    const monitor = this.monitors.find(id);
    if (monitor < 0) return false;
    const query = this.monitorInfo[2 * monitor]!;
    const index = this.monitorInfo[2 * monitor + 1]!;
    const records = this.records;
    const base = REC * query;
    const offset = records[base + R_MEMBERS]!;
    const last = records[base + R_COUNT]! - 1;
    const { ids, slots } = this.members;
    if (index !== last) {
      ids[offset + index] = ids[offset + last]!;
      const moved = slots[offset + last]!;
      slots[offset + index] = moved;
      this.monitorInfo[2 * moved + 1] = index;
    }
    ids[offset + last] = '';
    records[base + R_COUNT] = last;
    if (last === 0) {
      this.members.release(offset, records[base + R_CAPACITY]!, 0);
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
   * Every monitor that matches `item`, with its hits; the order is unspecified. The result
   * objects are new, but their `highlights` arrays are shared (between the monitors of one query,
   * and between queries with the same hits): treat them as read-only, copy to change.
   */
  match(item: MatchableItem): MonitorMatch[] {
    this.analyse(item);
    this.collectCandidates();
    const records = this.records;
    const code = this.code.data;
    let matched = 0;
    let total = 0;
    for (let i = 0; i < this.candidateCount; i++) {
      const query = this.candidates[i]!;
      const base = REC * query;
      const flags = records[base + R_FLAGS]!;
      this.rangeCount = 0;
      if ((flags & F_SIMPLE) !== 0) {
        this.collectOccurrences(records[base + R_ANCHOR]!, ALL_FIELDS);
      } else if ((flags & F_INLINE) !== 0) {
        if (!this.evaluate(records, base + R_CODE)) continue;
        this.collect(records, base + R_CODE);
      } else {
        const pc = records[base + R_PROGRAM]!;
        if (!this.evaluate(code, pc)) continue;
        this.collect(code, pc);
      }
      if (matched === this.matchedQueries.length) {
        this.matchedQueries = grownInt32(this.matchedQueries, matched + 1);
      }
      this.matchedQueries[matched] = query;
      this.matchedHighlights[matched] = this.highlightsOf();
      matched++;
      total += records[base + R_COUNT]!;
    }
    const matches = new Array<MonitorMatch>(total);
    const ids = this.members.ids;
    let at = 0;
    for (let k = 0; k < matched; k++) {
      const base = REC * this.matchedQueries[k]!;
      const highlights = this.matchedHighlights[k]!;
      const offset = records[base + R_MEMBERS]!;
      const end = offset + records[base + R_COUNT]!;
      for (let m = offset; m < end; m++) matches[at++] = { monitorId: ids[m]!, highlights };
    }
    this.item = null; // names are read only while matching; the item is not kept after
    return matches;
  }

  /** The compiled query for `query` (parsed if a string), created if new; one reference taken. */
  private queryOf(query: string | QueryNode, options: MonitorOptions): number {
    return this.findOrCreateQuery(
      typeof query === 'string' ? parseQuery(query) : query,
      options.sources,
    );
  }

  /** A monitor slot holding `id`; throws when the id is already in the index. */
  private claimMonitor(id: string): number {
    const monitor = this.freeMonitors.pop() ?? this.nextMonitor++;
    if (!this.monitors.insertNew(monitor, id)) {
      this.freeMonitors.push(monitor);
      throw new Error(`Monitor ${id} is already in the index.`);
    }
    this.monitorInfo = grownInt32(this.monitorInfo, 2 * monitor + 2);
    this.monitorCount++;
    return monitor;
  }

  private releaseMonitor(monitor: number): void {
    this.monitors.remove(monitor);
    this.freeMonitors.push(monitor);
    this.monitorCount--;
  }

  private addMember(query: number, id: string, monitor: number): void {
    const base = REC * query;
    const count = this.records[base + R_COUNT]!;
    const capacity = this.records[base + R_CAPACITY]!;
    if (count === capacity) {
      const previous = this.records[base + R_MEMBERS]!;
      const grown = capacity === 0 ? 1 : 2 * capacity;
      const offset = this.members.alloc(grown);
      const { ids, slots } = this.members;
      for (let i = 0; i < count; i++) {
        ids[offset + i] = ids[previous + i]!;
        slots[offset + i] = slots[previous + i]!;
      }
      if (capacity > 0) this.members.release(previous, capacity, count);
      this.records[base + R_MEMBERS] = offset;
      this.records[base + R_CAPACITY] = grown;
    }
    const at = this.records[base + R_MEMBERS]! + count;
    this.members.ids[at] = id;
    this.members.slots[at] = monitor;
    this.records[base + R_COUNT] = count + 1;
    this.monitorInfo[2 * monitor] = query;
    this.monitorInfo[2 * monitor + 1] = count;
  }

  private newQuery(flags: number, anchor: number): number {
    const query = this.freeQueries.pop() ?? this.nextQuery++;
    this.records = grownInt32(this.records, REC * (query + 1));
    const base = REC * query;
    this.records.fill(0, base, base + REC);
    this.records[base + R_FLAGS] = flags;
    this.records[base + R_ANCHOR] = anchor;
    this.queryCount++;
    return query;
  }

  private findOrCreateQuery(ast: QueryNode, sourceList: readonly Source[] | undefined): number {
    this.internedCount = 0;
    const simple =
      sourceList === undefined &&
      (ast.type === 'prefix' ||
        (ast.type === 'term' && ast.sequence.words.length === 1 && ast.sequence.gaps === null));
    if (simple) {
      const term = this.interner.term(
        ast.type === 'prefix' ? prefixKey(ast.prefix) : ast.sequence.words[0]!,
      );
      const existing = this.postings.extra(term, T_SIMPLE - 3) - 1;
      if (existing >= 0) {
        this.releaseTerm(term);
        return existing;
      }
      const query = this.newQuery(F_SIMPLE, term);
      this.postings.setExtra(term, query + 1, T_SIMPLE - 3);
      return query;
    }

    const program = this.scratchProgram;
    program.length = 0;
    if (sourceList === undefined) {
      emitProgram(ast, program, this.interner);
    } else {
      let sources = 0;
      for (const source of sourceList) sources |= SOURCE_BITS[source];
      emitRestricted(ast, sources, program, this.interner);
    }
    const hash = hashInts(program);
    const existing = this.findProgram(program, hash);
    if (existing >= 0) {
      this.scratchCode = grownInt32(this.scratchCode, program.length);
      for (let i = 0; i < program.length; i++) this.scratchCode[i] = program[i]!;
      forEachReference(this.scratchCode, 0, this.releaseTerm, this.releaseGap);
      return existing;
    }
    const anchorSet = chooseAnchors(ast);
    const anchors: number[] = [];
    for (const anchor of anchorSet?.anchors ?? []) {
      const term = this.termOf(anchor);
      if (!anchors.includes(term)) anchors.push(term);
    }
    const inline = program.length <= INLINE_INTS;
    let flags = inline ? F_INLINE : 0;
    let anchor = -1;
    if (anchorSet === null) flags |= F_ALWAYS;
    else if (anchors.length === 1) anchor = anchors[0]!;
    else {
      flags |= F_MULTI;
      anchor = this.code.alloc(1 + anchors.length);
      this.code.data[anchor] = anchors.length;
      for (let i = 0; i < anchors.length; i++) this.code.data[anchor + 1 + i] = anchors[i]!;
    }
    const query = this.newQuery(flags, anchor);
    const base = REC * query;
    if (inline) {
      for (let i = 0; i < program.length; i++) this.records[base + R_CODE + i] = program[i]!;
    } else {
      const offset = this.code.alloc(program.length);
      for (let i = 0; i < program.length; i++) this.code.data[offset + i] = program[i]!;
      this.records[base + R_PROGRAM] = offset;
    }
    this.programs.insert(query, hash);
    if (anchorSet === null) this.always.push(query);
    else if (anchors.length === 1) {
      const guard = chooseGuard(ast, anchorSet.anchors[0]!);
      const guardTerm = guard === null ? -1 : this.termOf(guard);
      this.postings.push(anchor, query, guardTerm);
      if (this.isNameTerm(anchor) || this.isNameTerm(guardTerm)) this.namePostings++;
    } else {
      for (const term of anchors) {
        this.postings.push(term, ~query, -1);
        if (this.isNameTerm(term)) this.namePostings++;
      }
    }
    return query;
  }

  /** The term id of an anchor of the query just compiled (its program interned the key). */
  private termOf(anchor: Anchor): number {
    const key = anchorKey(anchor);
    for (let i = 0; i < this.internedCount; i++) {
      if (this.internedKeys[i] === key) return this.internedIds[i]!;
    }
    return this.terms.find(key);
  }

  /**
   * Renumbers the queries in the order of the posting lists (a term's lone-word query, then the
   * queries anchored on it) and rewrites records, member blocks, postings and the program table
   * in that order. Everything else refers to queries by number, so it is remapped in place.
   */
  private relayout(): void {
    const limit = this.nextQuery;
    const newId = new Int32Array(limit).fill(-1);
    const order = new Int32Array(this.queryCount);
    let next = 0;
    const visit = (query: number): void => {
      if (newId[query]! >= 0) return;
      newId[query] = next;
      order[next++] = query;
    };
    const meta = this.postings.meta;
    const postings = this.postings.data;
    const termLimit = this.terms.idLimit;
    for (let term = 0; term < termLimit; term++) {
      const at = TERM * term;
      if (meta[at + T_SIMPLE]! > 0) visit(meta[at + T_SIMPLE]! - 1);
      const end = meta[at]! + 2 * meta[at + 1]!;
      for (let k = meta[at]!; k < end; k += 2)
        visit(postings[k]! >= 0 ? postings[k]! : ~postings[k]!);
    }
    for (const query of this.always) visit(query);
    if (next !== this.queryCount)
      throw new Error(`Relayout found ${next} of ${this.queryCount} queries.`);

    const old = this.records;
    // Room for a quarter more queries before the records grow again.
    const records = new Int32Array(REC * Math.max(256, Math.ceil(1.25 * next)));
    let entries = 0;
    for (let query = 0; query < next; query++) {
      entries += blockCapacity(old[REC * order[query]! + R_COUNT]!);
    }
    const oldMembers = this.members;
    const members = new MemberLists(entries);
    const programs = new OpenHashIndex();
    programs.reserve(next);
    for (let query = 0; query < next; query++) {
      const base = REC * query;
      const from = REC * order[query]!;
      for (let i = 1; i < REC; i++) records[base + i] = old[from + i]!;
      const count = records[base + R_COUNT]!;
      const capacity = blockCapacity(count);
      const offset = members.alloc(capacity);
      const previous = records[base + R_MEMBERS]!;
      for (let i = 0; i < count; i++) {
        const slot = oldMembers.slots[previous + i]!;
        members.ids[offset + i] = oldMembers.ids[previous + i]!;
        members.slots[offset + i] = slot;
        this.monitorInfo[2 * slot] = query;
      }
      records[base + R_MEMBERS] = offset;
      records[base + R_CAPACITY] = capacity;
      const flags = records[base + R_FLAGS]!;
      if ((flags & F_SIMPLE) !== 0) continue;
      const inline = (flags & F_INLINE) !== 0;
      programs.insert(
        query,
        hashCode(
          inline ? records : this.code.data,
          inline ? base + R_CODE : records[base + R_PROGRAM]!,
        ),
      );
    }
    for (let term = 0; term < termLimit; term++) {
      const at = TERM * term;
      if (meta[at + T_SIMPLE]! > 0) meta[at + T_SIMPLE] = newId[meta[at + T_SIMPLE]! - 1]! + 1;
      const end = meta[at]! + 2 * meta[at + 1]!;
      for (let k = meta[at]!; k < end; k += 2) {
        const entry = postings[k]!;
        postings[k] = entry >= 0 ? newId[entry]! : ~newId[~entry]!;
      }
    }
    for (let i = 0; i < this.always.length; i++) this.always[i] = newId[this.always[i]!]!;
    this.records = records;
    this.members = members;
    this.programs = programs;
    this.freeQueries.length = 0;
    this.nextQuery = next;
  }

  /** The query whose stored program equals `program`, or -1. */
  private findProgram(program: readonly number[], hash: number): number {
    const { buckets, mask } = this.programs;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const query = buckets[2 * at]!;
      if (query === EMPTY) return -1;
      if (query < 0 || buckets[2 * at + 1] !== hash) continue;
      const base = REC * query;
      const inline = (this.records[base + R_FLAGS]! & F_INLINE) !== 0;
      const code = inline ? this.records : this.code.data;
      const pc = inline ? base + R_CODE : this.records[base + R_PROGRAM]!;
      if (nodeSize(code[pc]!) !== program.length) continue;
      let i = 0;
      while (i < program.length && code[pc + i] === program[i]) i++;
      if (i === program.length) return query;
    }
  }

  private dropQuery(query: number): void {
    const records = this.records;
    const base = REC * query;
    const flags = records[base + R_FLAGS]!;
    const anchor = records[base + R_ANCHOR]!;
    if ((flags & F_SIMPLE) !== 0) {
      this.postings.setExtra(anchor, 0, T_SIMPLE - 3);
      this.releaseTerm(anchor);
    } else {
      const code = this.code.data;
      if ((flags & F_MULTI) !== 0) {
        const count = code[anchor]!;
        for (let i = 0; i < count; i++) this.removePosting(code[anchor + 1 + i]!, ~query);
        this.code.release(anchor, 1 + count);
      } else if ((flags & F_ALWAYS) === 0) {
        this.removePosting(anchor, query);
      }
      if ((flags & F_ALWAYS) !== 0) {
        const at = this.always.indexOf(query);
        this.always[at] = this.always[this.always.length - 1]!;
        this.always.pop();
      }
      this.programs.remove(query);
      if ((flags & F_INLINE) !== 0) {
        forEachReference(records, base + R_CODE, this.releaseTerm, this.releaseGap);
      } else {
        const pc = records[base + R_PROGRAM]!;
        const size = nodeSize(this.code.data[pc]!);
        forEachReference(this.code.data, pc, this.releaseTerm, this.releaseGap);
        this.code.release(pc, size);
      }
    }
    records.fill(0, base, base + REC);
    this.freeQueries.push(query);
    this.queryCount--;
  }

  /** Writes `key` into the term record of `id` when it is short plain ASCII (see TERM). */
  private storeKey(id: number, key: string): void {
    const meta = this.postings.meta;
    const at = TERM * id + T_KEY;
    meta.fill(0, at, at + 1 + KEY_CHARS / 4);
    meta[at] = KEY_STRING;
    if (key.length > KEY_CHARS) return;
    for (let k = 0; k < key.length; k++) {
      const code = key.charCodeAt(k);
      if (code === 1 || code > 127) return;
      meta[at + 1 + (k >> 2)]! |= code << (8 * (k & 3));
    }
    meta[at] = key.length;
  }

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

  private removePosting(term: number, entry: number): void {
    const index = this.postings.indexOf(term, entry);
    const guard = this.postings.secondAt(term, index);
    if (this.isNameTerm(term) || this.isNameTerm(guard)) this.namePostings--;
    this.postings.removeAt(term, index);
  }

  /** Whether `term` (or -1) is a community's or an author's. */
  private isNameTerm(term: number): boolean {
    const key = term < 0 ? undefined : this.terms.keyOf(term);
    if (key === undefined) return false;
    const kind = keyKind(key);
    return kind === 'community' || kind === 'author';
  }

  private registerPrefix(prefix: string, id: number): void {
    this.prefixes.insert(id, prefix);
    this.countPrefixTriples(prefix, 1);
    const shortest =
      this.prefixCount === 0 ? prefix.length : Math.min(this.shortestPrefix, prefix.length);
    this.longestPrefix = Math.max(this.longestPrefix, prefix.length);
    this.prefixCount++;
    if (shortest === this.shortestPrefix) {
      this.prefixHeads.insert(id, this.headHash(prefix, 0, prefix.length));
      return;
    }
    this.shortestPrefix = shortest;
    this.prefixHeads = new OpenHashIndex(true);
    this.prefixes.forEach((key, prefixId) => {
      this.prefixHeads.insert(prefixId, this.headHash(key, 0, key.length));
    });
  }

  // The shortest and longest bounds only widen; they stay correct, if loose, after removals.
  private unregisterPrefix(id: number): void {
    this.countPrefixTriples(this.prefixes.keyOf(id)!, -1);
    this.prefixes.remove(id);
    this.prefixHeads.remove(id);
    this.prefixCount--;
  }

  private countPrefixTriples(prefix: string, delta: number): void {
    if (prefix.length < 2) {
      this.onePrefixes += delta;
      return;
    }
    // A prefix that does not begin with ASCII letters or digits begins no ASCII word.
    const first = prefix.charCodeAt(0);
    const second = prefix.charCodeAt(1);
    if (!isAsciiWordCode(first) || !isAsciiWordCode(second)) return;
    if (prefix.length === 2) {
      // Any third character, or none (a word of two letters repeats its second).
      for (let third = 0; third < 32; third++)
        this.countTriple(gateKey(first, second, third), delta);
      return;
    }
    const third = prefix.charCodeAt(2);
    if (isAsciiWordCode(third)) this.countTriple(gateKey(first, second, third), delta);
  }

  private countTriple(triple: number, delta: number): void {
    const count = (this.tripleCounts.get(triple) ?? 0) + delta;
    if (count > 0) {
      this.tripleCounts.set(triple, count);
      this.tripleGate[triple >>> 5]! |= 1 << (triple & 31);
    } else {
      this.tripleCounts.delete(triple);
      this.tripleGate[triple >>> 5]! &= ~(1 << (triple & 31));
    }
  }

  // --- matching -------------------------------------------------------------------------

  private analyse(item: MatchableItem): void {
    if (++this.stamp === 0x7fffffff) {
      for (let i = R_STAMP; i < this.records.length; i += REC) this.records[i] = 0;
      this.stamp = 1;
    }
    // Emptied in reverse order of insertion, so each key's probe path is intact when it goes.
    for (let i = this.presentCount - 1; i >= 0; i--) {
      this.presentKeys[this.slotOf(this.present[i]!)] = -1;
    }
    this.posCount = 0;
    this.occCount = 0;
    this.presentCount = 0;
    this.memoCount = 0;
    this.rangeLogCount = 0;
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
    if (this.namePostings > 0) this.markNames();
  }

  /**
   * Marks the terms of the item's community and author, once per item: before its candidates
   * are collected while some posting needs them, else when verification first asks. An item's
   * names are memory no other step reads, so skipping them saves a cache miss or two an item.
   */
  private markNames(): void {
    this.namesMarked = true;
    const item = this.item!;
    if (this.communityTerms > 0 && item.community) this.markName(COMMUNITY_KEY, item.community);
    if (this.authorTerms > 0 && item.author) this.markName(AUTHOR_KEY, item.author);
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
      if (from < length) from = scanWords(text, this.visitor, this.shortestPrefix, from, true);
    }
  }

  /** The positions of the words `asciiWords` just found, as the visitor's `asciiWord` records one. */
  private recordAsciiWords(text: string, field: number, words: number): void {
    const { bounds, hashes } = this.asciiWords;
    let position = this.posCount;
    this.reservePositions(words);
    const { posTerm, posStart, posEnd } = this;
    this.posField.fill(field, position, position + words);
    const prefixLength = this.prefixCount > 0 ? this.shortestPrefix : -1;
    const gated = this.onePrefixes === 0;
    const gate = this.tripleGate;
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
        // not Math.min or a test, picks the characters: 4 ns a word instead of 8.
        const short = (end - start - 2) >>> 31;
        const second = start + 1 - short;
        const third = start + 2 - short - ((end - start - 3) >>> 31);
        const triple = gateKey(
          text.charCodeAt(start),
          text.charCodeAt(second),
          text.charCodeAt(third),
        );
        if ((gate[triple >>> 5]! & (1 << (triple & 31))) === 0) continue;
      }
      const prefixHash = end - start > prefixLength ? this.headHash(text, start, end) : hash;
      if (this.prefixHeads.mayContain(prefixHash)) {
        this.matchPrefixes(text, start, end, prefixHash, position);
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
      if (this.prefixCount > 0 && this.prefixHeads.mayContain(prefixHash)) {
        this.matchPrefixes(text, start, end, prefixHash, position);
      }
    },
    word: (word, start, end) => {
      const term = this.terms.find(word);
      const position = this.pushPosition(term, this.currentField, start, end);
      if (term >= 0) this.addOccurrence(term, position);
      if (this.prefixCount > 0) {
        const prefixHash = this.headHash(word, 0, word.length);
        if (this.prefixHeads.mayContain(prefixHash)) {
          this.matchPrefixes(word, 0, word.length, prefixHash, position);
        }
      }
    },
  };

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

  /** The slot of `term` in the present table, or -1 when the item does not hold it. */
  private slotOf(term: number): number {
    const keys = this.presentKeys;
    const mask = keys.length - 1;
    for (let at = Math.imul(term, 0x9e3779b1) >>> this.presentShift; ; at = (at + 1) & mask) {
      const key = keys[at]!;
      if (key === term) return at;
      if (key < 0) return -1;
    }
  }

  private isPresent(term: number): boolean {
    return this.slotOf(term) >= 0;
  }

  /** The head of the occurrence list of `term` in the item, or -1. */
  private headOf(term: number): number {
    const slot = this.slotOf(term);
    return slot < 0 ? -1 : this.presentHeads[slot]!;
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

  private addOccurrence(term: number, position: number): void {
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

  /**
   * The hash of the lower case of the first `shortestPrefix` characters of `text[start, end)`
   * (of all of them when it is shorter): what `prefixHeads` holds for each prefix term.
   */
  private headHash(text: string, start: number, end: number): number {
    const stop = Math.min(end, start + this.shortestPrefix);
    let hash = FNV_OFFSET;
    for (let k = start; k < stop; k++) hash = nextHash(hash, text.charCodeAt(k));
    return hash;
  }

  /**
   * Records `position` under every prefix term that `text[start, end)` (lower-cased) starts with;
   * `prefixHash` is its `headHash`. The caller probes `prefixHeads` with it first, in its own
   * loop (as for `findAsciiTerm`), so a word that begins no prefix term's head costs no call.
   */
  private matchPrefixes(
    text: string,
    start: number,
    end: number,
    prefixHash: number,
    position: number,
  ): void {
    const longest = Math.min(end - start, this.longestPrefix);
    let hash = prefixHash;
    for (let k = this.shortestPrefix; k <= longest; k++) {
      if (k > this.shortestPrefix) hash = nextHash(hash, text.charCodeAt(start + k - 1));
      const term = this.prefixes.findAscii(text, start, start + k, hash);
      if (term >= 0) this.addOccurrence(term, position);
    }
  }

  private collectCandidates(): void {
    this.candidateCount = 0;
    const stamp = this.stamp;
    const records = this.records;
    const meta = this.postings.meta;
    const postings = this.postings.data;
    for (let i = 0; i < this.presentCount; i++) {
      const term = this.present[i]!;
      const at = TERM * term;
      const simple = meta[at + T_SIMPLE]! - 1;
      if (simple >= 0) this.addCandidate(simple);
      const offset = meta[at]!;
      const end = offset + 2 * meta[at + 1]!;
      for (let k = offset; k < end; k += 2) {
        const guard = postings[k + 1]!;
        if (guard >= 0 && !this.isPresent(guard)) continue;
        let query = postings[k]!;
        if (query < 0) {
          query = ~query;
          if (records[REC * query + R_STAMP] === stamp) continue;
          records[REC * query + R_STAMP] = stamp;
        }
        this.addCandidate(query);
      }
    }
    for (const query of this.always) this.addCandidate(query);
  }

  private addCandidate(query: number): void {
    if (this.candidateCount === this.candidates.length) {
      this.candidates = grownInt32(this.candidates, this.candidateCount + 1);
    }
    this.candidates[this.candidateCount++] = query;
  }

  private evaluate(code: Int32Array, pc: number): boolean {
    const header = code[pc]!;
    switch (header & 15) {
      case OP_TERM:
        return this.matchTerm(code, pc, false);
      case OP_PREFIX:
        return this.hasOccurrence(code[pc + 1]!, (header >> 4) & 7);
      case OP_META:
        if (!this.namesMarked) this.markNames();
        return this.isPresent(code[pc + 1]!);
      case OP_SITES:
        return (code[pc + 1]! & this.itemSource) !== 0;
      case OP_NOT:
        return !this.evaluate(code, pc + 1);
      case OP_AND: {
        const end = pc + nodeSize(header);
        for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
          if (!this.evaluate(code, child)) return false;
        }
        return true;
      }
      case OP_OR: {
        const end = pc + nodeSize(header);
        for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
          if (this.evaluate(code, child)) return true;
        }
        return false;
      }
      default:
        throw new Error(`Corrupt program: op ${header & 15} at ${pc}.`);
    }
  }

  /** Pushes (field, start, end) of every hit of the positive terms below `pc`. */
  private collect(code: Int32Array, pc: number): void {
    const header = code[pc]!;
    switch (header & 15) {
      case OP_TERM:
        this.matchTerm(code, pc, true);
        return;
      case OP_PREFIX:
        this.collectOccurrences(code[pc + 1]!, (header >> 4) & 7);
        return;
      case OP_AND:
      case OP_OR: {
        const end = pc + nodeSize(header);
        for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
          this.collect(code, child);
        }
        return;
      }
      default:
        return;
    }
  }

  private hasOccurrence(term: number, fields: number): boolean {
    const slot = this.slotOf(term);
    if (slot < 0) return false;
    if (fields === ALL_FIELDS) return true;
    for (let o = this.presentHeads[slot]!; o >= 0; o = this.occNext[o]!) {
      if (((1 << this.posField[this.occPos[o]!]!) & fields) !== 0) return true;
    }
    return false;
  }

  private collectOccurrences(term: number, fields: number): void {
    for (let o = this.headOf(term); o >= 0; o = this.occNext[o]!) {
      const p = this.occPos[o]!;
      const field = this.posField[p]!;
      if (((1 << field) & fields) !== 0) this.pushRange(field, this.posStart[p]!, this.posEnd[p]!);
    }
  }

  /** Whether a word sequence occurs; with `record`, records every occurrence instead. */
  private matchTerm(code: Int32Array, pc: number, record: boolean): boolean {
    const header = code[pc]!;
    const fields = (header >> 4) & 7;
    const n = termWords(header);
    const words = pc + 1;
    const head = this.headOf(code[words]!);
    if (head < 0) return false;
    for (let i = 1; i < n; i++) if (!this.isPresent(code[words + i]!)) return false;
    const rules = (header & HAS_GAPS) !== 0 ? words + n : -1;
    if (n === 1 && rules < 0 && fields === ALL_FIELDS && !record) return true;
    let found = false;
    for (let o = head; o >= 0; o = this.occNext[o]!) {
      const p = this.occPos[o]!;
      const field = this.posField[p]!;
      if (((1 << field) & fields) === 0) continue;
      let i = 1;
      while (i < n && this.posTerm[p + i] === code[words + i]) i++;
      if (i < n) continue;
      if (rules >= 0 && !this.checkGaps(code, rules, p, n)) continue;
      if (!record) return true;
      found = true;
      const text = this.fieldTexts[field]!;
      const lead = rules >= 0 ? this.gapLength(code[rules + 2]!) : 0;
      const trail = rules >= 0 ? this.gapLength(code[rules + 3 * n + 1]!) : 0;
      this.pushRange(
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

  private pushRange(field: number, start: number, end: number): void {
    const at = this.rangeCount;
    if (at + 3 > this.ranges.length) this.ranges = grownInt32(this.ranges, at + 3);
    this.ranges[at] = field;
    this.ranges[at + 1] = start;
    this.ranges[at + 2] = end;
    this.rangeCount = at + 3;
  }

  /**
   * The highlights of the ranges collected; the same array as an earlier query of this item with
   * the same ranges got (a popular word's `task`, `task -foo` and `task OR bar` usually have the
   * same hits).
   */
  private highlightsOf(): Highlight[] {
    const ranges = this.ranges;
    const length = this.rangeCount;
    const known = Math.min(this.memoCount, MEMO);
    for (let k = 0; k < known; k++) {
      if (this.memoLength[k] !== length) continue;
      const start = this.memoStart[k]!;
      let i = 0;
      while (i < length && this.rangeLog[start + i] === ranges[i]) i++;
      if (i === length) return this.memoHighlights[k]!;
    }
    const highlights = toHighlights(ranges, length);
    const slot = this.memoCount++ % MEMO;
    const at = this.rangeLogCount;
    if (at + length > this.rangeLog.length) this.rangeLog = grownInt32(this.rangeLog, at + length);
    for (let i = 0; i < length; i++) this.rangeLog[at + i] = ranges[i]!;
    this.rangeLogCount = at + length;
    this.memoStart[slot] = at;
    this.memoLength[slot] = length;
    this.memoHighlights[slot] = highlights;
    return highlights;
  }
}

// Occurrence lists run backwards (newest first), so ranges usually arrive in reverse order;
// then one pass builds the merged highlights, and only a mixed order needs a sort.
function toHighlights(ranges: Int32Array, length: number): Highlight[] {
  const count = length / 3;
  let ascending = true;
  let descending = true;
  for (let i = 3; i < length; i += 3) {
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
