import { type Anchor, chooseAnchors, chooseGuard } from './anchors.ts';
import { BulkQueries } from './bulk-queries.ts';
import {
  ALL_FIELDS,
  authorKey,
  communityKey,
  emitProgram,
  emitRestricted,
  forEachReference,
  type Interner,
  keyKind,
  nodeSize,
  prefixKey,
  SOURCE_BITS,
} from './compile.ts';
import { IntLists } from './int-lists.ts';
import { Int32Arena } from './int32-arena.ts';
import { ItemAnalysis } from './item-analysis.ts';
import { blockCapacity, MemberLists } from './member-lists.ts';
import { EMPTY, OpenHashIndex } from './open-hash-index.ts';
import { PrefixGate } from './prefix-gate.ts';
import type { QueryNode, Source } from './query-ast.ts';
import { parseQuery } from './query-parser.ts';
import {
  F_ALWAYS,
  F_INLINE,
  F_MULTI,
  F_SIMPLE,
  grownInt32,
  INLINE_INTS,
  KEY_CHARS,
  KEY_STRING,
  R_ANCHOR,
  R_CAPACITY,
  R_CODE,
  R_COUNT,
  R_FLAGS,
  R_MEMBERS,
  R_PROGRAM,
  R_STAMP,
  REC,
  T_KEY,
  T_SIMPLE,
  TERM,
} from './records.ts';
import { StringTable } from './string-table.ts';
import { hashWord } from './text.ts';
import { Verifier } from './verify.ts';
import { Vocabulary } from './vocabulary.ts';

export type ItemField = 'title' | 'body' | 'url';

/** The parts of a normalised item (docs/product.md, "Sources") that queries look at. */
export interface MatchableItem {
  readonly source: string;
  readonly title?: string | null;
  readonly body?: string | null;
  readonly url?: string | null;
  readonly author?: string | null;
  readonly community?: string | null;
  /** The item's signals (src/shared/signals.ts), read by `intent:`, `sentiment:` and `lang:`. */
  readonly intents?: readonly string[] | null;
  readonly sentiment?: string | null;
  readonly language?: string | null;
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

/** Monitors of an array that `addMany` hashes and reads ahead at a time (`addBatch`). */
const BATCH = 128;

function hashInts(values: readonly number[]): number {
  let hash = 0x811c9dc5;
  for (const value of values) hash = Math.imul(hash ^ value, 0x01000193);
  return hash;
}

/** The SOURCE_BITS mask of a monitor's sources; -1: none given (every source, no check). */
function sourcesVariant(sources: readonly Source[] | undefined): number {
  if (sources === undefined) return -1;
  let mask = 0;
  for (const source of sources) mask |= SOURCE_BITS[source];
  return mask;
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
 * All monitors, compiled into typed arrays: the registry of monitors and queries and the writes
 * that keep it (this file), the prefix terms' gate (prefix-gate.ts), the reading of an item
 * (item-analysis.ts) and the verification of candidates with their highlights (verify.ts).
 * Monitors with the same canonical query share one compiled query; posting lists lead from each
 * query's anchors (the rarest required term of every OR branch) to the query. `match` reads an
 * item once, gathers the queries anchored on its words, verifies each exactly, and reports every
 * monitor of each query that matched.
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

  // Queries: one record of REC ints each (records.ts). A lone-word query is found again by its
  // term (the `extra` int of the term's posting list), any other by the hash of its program.
  private records = new Int32Array(REC * 256);
  private readonly freeQueries: number[] = [];
  private nextQuery = 0;
  private queryCount = 0;
  private programs = new OpenHashIndex();
  private members = new MemberLists();
  // Posting lists: term → (query anchored on it, guard) pairs. The guard is a second term the
  // query needs (or -1), checked before the query's record is read. The list's meta is the
  // term's record (TERM in records.ts), so a present term leads to its lone-word query directly.
  private readonly postings = new IntLists(TERM);
  private readonly always: number[] = [];

  private readonly terms = new Vocabulary(true);
  private readonly gaps = new Vocabulary();
  private readonly code = new Int32Arena();
  private scratchProgram: number[] = [];
  private scratchCode = new Int32Array(64);

  private readonly prefixes = new PrefixGate();
  // How many posting entries lead from a community or author term or are guarded by one: while
  // there are any, an item's names are marked before its candidates are collected; otherwise
  // only when a candidate's program first asks for one (OP_META), and for most items never.
  private namePostings = 0;

  // The state of the item being matched, reused from item to item.
  private readonly item = new ItemAnalysis(this.terms, this.postings, this.prefixes);
  private readonly verifier = new Verifier(this.item, this.gaps);
  private stamp = 0;
  private candidates = new Int32Array(256);
  private candidateCount = 0;
  private matchedQueries = new Int32Array(256);
  // Overwritten item after item, never emptied (emptying a JS array drops its storage).
  private readonly matchedHighlights: Highlight[][] = [];

  // The keys the interner was given for the query being compiled, and their ids, so its
  // anchors and guard are found again without hashing and probing the vocabulary twice.
  private readonly internedKeys: string[] = [];
  private readonly internedIds: number[] = [];
  private internedCount = 0;

  // While `addMany` runs: the query each query text was compiled to, one map per choice of
  // sources (`sourcesVariant`), so a text that many monitors share ("openai") is parsed and
  // compiled once. Emptied whenever a query is dropped or renumbered, as the ids would go stale.
  private bulkQueries: BulkQueries | null = null;
  // `addBatch`'s hashes of a batch's ids and texts, and what it read ahead, kept so that the
  // reads are not optimised away.
  private readonly batchIdHashes = new Int32Array(BATCH);
  private readonly batchTextHashes = new Int32Array(BATCH);
  private peeked = 0;

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
        if (delta > 0) this.prefixes.register(key.slice(2), id);
        else this.prefixes.unregister(id);
        break;
      case 'community':
        this.item.communityTerms += delta;
        break;
      case 'author':
        this.item.authorTerms += delta;
        break;
      case 'signal':
        this.item.signalTerms += delta;
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
    return this.addHashed(id, hashWord(id), query, options);
  }

  /** `add`, with the id's `hashWord` (and the text's `BulkQueries.hash`) computed already. */
  private addHashed(
    id: string,
    idHash: number,
    query: string | QueryNode,
    options: MonitorOptions,
    textHash?: number,
  ): boolean {
    // `hashWord` is the FNV-1a of `shardOf`: the id is hashed once for both.
    const shard = this.shard;
    if (shard !== undefined && (idHash >>> 0) % shard.count !== shard.index) return false;
    const monitor = this.claimMonitor(id, idHash);
    try {
      this.addMember(this.queryOf(query, options, textHash), id, monitor);
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
   * how many monitors this index (shard) kept. Any iterable will do: a generator that parses
   * each monitor as it is asked for keeps no more than one query tree alive at a time.
   */
  addMany(monitors: readonly MonitorEntry[] | Iterable<MonitorEntry>): number {
    this.bulkQueries = new BulkQueries();
    if (Array.isArray(monitors)) {
      this.monitors.reserve(monitors.length);
      this.monitorInfo = grownInt32(this.monitorInfo, 2 * (this.nextMonitor + monitors.length));
      // At most one query per monitor; `relayout` trims what is left unused.
      this.records = grownInt32(this.records, REC * (this.nextQuery + monitors.length));
      this.programs.reserve(monitors.length);
      this.bulkQueries.reserve(monitors.length);
    }
    let kept = 0;
    try {
      if (Array.isArray(monitors)) {
        const list: readonly MonitorEntry[] = monitors;
        for (let start = 0; start < list.length; start += BATCH) {
          kept += this.addBatch(list, start, Math.min(list.length, start + BATCH));
        }
      } else {
        for (const monitor of monitors) {
          if (this.add(monitor.id, monitor.query, monitor)) kept++;
        }
      }
    } finally {
      this.bulkQueries = null;
      this.relayout();
    }
    return kept;
  }

  /**
   * Adds `monitors[start, end)` as `add` does. Each add misses the cache on the id table and on
   * the table of query texts, one miss after another, as there is too much work between them for
   * the processor to run ahead. So the batch's ids and texts are hashed first, and the buckets
   * (and what a matching bucket leads to) read in one short loop, whose loads do not wait on each
   * other: their misses overlap, and the adds then find the lines in cache. A generator is not
   * read ahead so, as it may depend on the monitors before being added (the CLI checks ids).
   */
  private addBatch(monitors: readonly MonitorEntry[], start: number, end: number): number {
    const count = end - start;
    const idHashes = this.batchIdHashes;
    const textHashes = this.batchTextHashes;
    for (let i = 0; i < count; i++) {
      const monitor = monitors[start + i]!;
      idHashes[i] = hashWord(monitor.id);
      const { query } = monitor;
      textHashes[i] =
        typeof query === 'string' ? BulkQueries.hash(query, sourcesVariant(monitor.sources)) : 0;
    }
    const ids = this.monitors.index;
    const bulk = this.bulkQueries!;
    const records = this.records;
    let peeked = 0;
    for (let i = 0; i < count; i++) {
      peeked ^= ids.peek(idHashes[i]!);
      const query = bulk.peek(textHashes[i]!);
      if (query >= 0) peeked ^= records[REC * query + R_COUNT]!;
    }
    this.peeked ^= peeked;
    let kept = 0;
    for (let i = 0; i < count; i++) {
      const monitor = monitors[start + i]!;
      const { query } = monitor;
      const textHash = typeof query === 'string' ? textHashes[i] : undefined;
      if (this.addHashed(monitor.id, idHashes[i]!, query, monitor, textHash)) kept++;
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
  /**
   * Every monitor that matches `item`, with its hits; the order is unspecified. The result
   * objects are new, but their `highlights` arrays are shared (between the monitors of one query,
   * and between queries with the same hits): treat them as read-only, copy to change.
   */
  match(item: MatchableItem): MonitorMatch[] {
    if (++this.stamp === 0x7fffffff) {
      for (let i = R_STAMP; i < this.records.length; i += REC) this.records[i] = 0;
      this.stamp = 1;
    }
    const analysis = this.item;
    const verifier = this.verifier;
    analysis.analyse(item);
    verifier.reset();
    if (this.namePostings > 0) analysis.markNames();
    this.collectCandidates();
    const records = this.records;
    const code = this.code.data;
    let matched = 0;
    let total = 0;
    for (let i = 0; i < this.candidateCount; i++) {
      const query = this.candidates[i]!;
      const base = REC * query;
      const flags = records[base + R_FLAGS]!;
      verifier.begin();
      if ((flags & F_SIMPLE) !== 0) {
        verifier.collectOccurrences(records[base + R_ANCHOR]!, ALL_FIELDS);
      } else if ((flags & F_INLINE) !== 0) {
        if (!verifier.evaluate(records, base + R_CODE)) continue;
        verifier.collect(records, base + R_CODE);
      } else {
        const pc = records[base + R_PROGRAM]!;
        if (!verifier.evaluate(code, pc)) continue;
        verifier.collect(code, pc);
      }
      if (matched === this.matchedQueries.length) {
        this.matchedQueries = grownInt32(this.matchedQueries, matched + 1);
      }
      this.matchedQueries[matched] = query;
      this.matchedHighlights[matched] = verifier.highlights();
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
    analysis.release(); // names are read only while matching; the item is not kept after
    return matches;
  }

  /** The compiled query for `query` (parsed if a string), created if new; one reference taken. */
  private queryOf(query: string | QueryNode, options: MonitorOptions, textHash?: number): number {
    if (typeof query !== 'string') return this.findOrCreateQuery(query, options.sources);
    const bulk = this.bulkQueries;
    if (bulk === null) return this.findOrCreateQuery(parseQuery(query), options.sources);
    // The same text and sources compile to the same program, which `findOrCreateQuery` would
    // find again (taking no reference), so the query compiled last time is the answer.
    const variant = sourcesVariant(options.sources);
    const hash = textHash ?? BulkQueries.hash(query, variant);
    const compiled = bulk.get(query, variant, hash);
    if (compiled >= 0) return compiled;
    const created = this.findOrCreateQuery(parseQuery(query), options.sources);
    bulk.set(query, variant, hash, created);
    return created;
  }

  /** Forgets the texts compiled during a bulk load (a query was dropped or renumbered). */
  private forgetBulkQueries(): void {
    if (this.bulkQueries !== null) this.bulkQueries = new BulkQueries();
  }

  /** A monitor slot holding `id`; throws when the id is already in the index. */
  private claimMonitor(id: string, hash = hashWord(id)): number {
    const monitor = this.freeMonitors.pop() ?? this.nextMonitor++;
    if (!this.monitors.insertNew(monitor, id, hash)) {
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
   * queries anchored on it) and rewrites records and member blocks in that order. Everything else
   * refers to queries by number (postings, the program table's buckets), so it is renumbered in
   * place.
   */
  private relayout(): void {
    this.forgetBulkQueries();
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
    }
    this.programs.renumber(newId, next);
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
    this.forgetBulkQueries();
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
    return kind === 'community' || kind === 'author' || kind === 'signal';
  }

  private collectCandidates(): void {
    this.candidateCount = 0;
    const stamp = this.stamp;
    const records = this.records;
    const meta = this.postings.meta;
    const postings = this.postings.data;
    const item = this.item;
    const present = item.present;
    for (let i = 0; i < item.presentCount; i++) {
      const term = present[i]!;
      const at = TERM * term;
      const simple = meta[at + T_SIMPLE]! - 1;
      if (simple >= 0) this.addCandidate(simple);
      const offset = meta[at]!;
      const end = offset + 2 * meta[at + 1]!;
      for (let k = offset; k < end; k += 2) {
        const guard = postings[k + 1]!;
        if (guard >= 0 && !item.isPresent(guard)) continue;
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
}
