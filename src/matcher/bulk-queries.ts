import { hashWord } from './text.ts';

const EMPTY = -1;

/**
 * The query each query text was compiled to during a bulk load (`addMany`), per choice of
 * sources: users share many texts ("openai", "rust"), and the second monitor of a text then
 * costs one probe instead of a parse and a compilation. An open-addressing table whose bucket
 * holds the entry and its hash side by side, so a text not seen before (about half of them)
 * costs one cache line and a hash of its characters; a Map costs several lines a lookup.
 */
export class BulkQueries {
  private buckets = new Int32Array(2 * 1024).fill(EMPTY);
  private texts: string[] = [];
  private variants = new Int32Array(512);
  private queries = new Int32Array(512);
  private count = 0;
  /** What `peek` read, kept so that the reads are not optimised away. */
  peeked = 0;
  /**
   * Sizes the table for `count` texts at most, so a load does not rehash on the way; at a load of
   * at most 1/2, not the 1/4 growing leaves, as the table of a million texts would take 32 MB.
   */
  reserve(count: number): void {
    if (2 * count > this.buckets.length >> 1) this.rehash(2 * count);
  }

  /** The hash `get` and `set` take for `text` with sources `variant`. */
  static hash(text: string, variant: number): number {
    return Math.imul(hashWord(text) ^ variant, 0x01000193);
  }

  /**
   * Reads what `get` will read for `hash`: its first bucket and, when the hash there matches,
   * the entry's text. A batch of lookups reads them ahead in one loop, so that their cache misses
   * overlap instead of coming one at a time. Returns the query of that entry (which the caller may
   * read ahead in turn), or -1.
   */
  peek(hash: number): number {
    const buckets = this.buckets;
    const at = hash & ((buckets.length >> 1) - 1);
    const entry = buckets[2 * at]!;
    if (entry === EMPTY || buckets[2 * at + 1] !== hash) return -1;
    this.peeked ^= this.texts[entry]!.length;
    return this.queries[entry]!;
  }

  /** The query compiled for `text` with sources `variant` (`hash` from `hash`), or -1. */
  get(text: string, variant: number, hash: number): number {
    const buckets = this.buckets;
    const mask = (buckets.length >> 1) - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const entry = buckets[2 * at]!;
      if (entry === EMPTY) return -1;
      if (
        buckets[2 * at + 1] === hash &&
        this.variants[entry] === variant &&
        this.texts[entry] === text
      ) {
        return this.queries[entry]!;
      }
    }
  }

  /** Records `query` for a text that `get` did not find. */
  set(text: string, variant: number, hash: number, query: number): void {
    const entry = this.count++;
    if (entry === this.queries.length) this.growEntries();
    this.texts.push(text);
    this.variants[entry] = variant;
    this.queries[entry] = query;
    if (2 * this.count > this.buckets.length >> 1) this.rehash(4 * this.count);
    this.place(entry, hash);
  }

  private place(entry: number, hash: number): void {
    const buckets = this.buckets;
    const mask = (buckets.length >> 1) - 1;
    let at = hash & mask;
    while (buckets[2 * at] !== EMPTY) at = (at + 1) & mask;
    buckets[2 * at] = entry;
    buckets[2 * at + 1] = hash;
  }

  private growEntries(): void {
    const variants = new Int32Array(2 * this.variants.length);
    variants.set(this.variants);
    this.variants = variants;
    const queries = new Int32Array(2 * this.queries.length);
    queries.set(this.queries);
    this.queries = queries;
  }

  // Buckets for at least `slots` entries (a power of two), so the load stays at most 1/2.
  private rehash(slots: number): void {
    let capacity = 1024;
    while (capacity < slots) capacity *= 2;
    const old = this.buckets;
    this.buckets = new Int32Array(2 * capacity).fill(EMPTY);
    for (let at = 0; at < old.length; at += 2) {
      if (old[at] !== EMPTY) this.place(old[at]!, old[at + 1]!);
    }
  }
}
