export const EMPTY = -1;
const DELETED = -2;

/**
 * The buckets of an open-addressing hash table over small int ids (terms, monitors, queries):
 * 8 bytes a bucket where a Map costs a few dozen an entry. A bucket is the pair
 * [id, hash] in `buckets`, so a probe reads one cache line. The owner keeps the keys and
 * probes with its own equality:
 *   for (let at = hash & mask; ; at = (at + 1) & mask) { id = buckets[2 * at]; … }
 *
 * With `filtered`, a small Bloom filter (three bits of one 32-bit word per key, 5.3 to 10.7 bits
 * per key: 256 KB for 300,000 keys, which stay in cache) answers `mayContain`, so the many lookups
 * of words that are not in the table (most words of an item) do not touch the buckets at all.
 */
export class OpenHashIndex {
  buckets = new Int32Array(2 * 1024).fill(EMPTY);
  private hashes = new Int32Array(256);
  private present = new Uint8Array(256);
  private used = 0;
  private live = 0;
  private filter: Int32Array | null;
  private filterMask = 0;
  private filterAdded = 0;

  constructor(filtered = false) {
    this.filter = filtered ? new Int32Array(64) : null;
    this.filterMask = 63;
  }

  get mask(): number {
    return (this.buckets.length >> 1) - 1;
  }

  /** False when no id with this hash was inserted (since the filter was last rebuilt). */
  mayContain(hash: number): boolean {
    const filter = this.filter;
    if (filter === null) return true;
    const bits = filterBits(hash);
    return (filter[(hash >>> 7) & this.filterMask]! & bits) === bits;
  }

  /**
   * Sizes the table for `count` more ids, so a bulk load does not rehash on the way. It sizes for
   * a load of at most 1/2 when they are in (not 1/4 as growing does): a million monitor ids take
   * 16 MB of buckets, not 32, so a load's random probes miss the cache less often.
   */
  reserve(count: number): void {
    if ((this.used + count + 1) * 4 > this.buckets.length) this.rehash(this.live + count, 2);
    this.ensureIds(this.hashes.length + count);
  }

  /**
   * The first bucket a probe for `hash` reads, read now: a batch of inserts reads theirs ahead in
   * one loop, so their cache misses overlap. Returns the id there, for the caller to keep.
   */
  peek(hash: number): number {
    return this.buckets[2 * (hash & this.mask)]!;
  }

  insert(id: number, hash: number): void {
    this.prepareInsert();
    this.ensureIds(id + 1);
    this.hashes[id] = hash;
    this.present[id] = 1;
    this.place(id, hash);
    this.live++;
    if (this.filter !== null) this.addToFilter(hash);
  }

  /** Makes room for one more id; call before probing for the bucket to `insertAt`. */
  prepareInsert(): void {
    if ((this.used + 1) * 4 > this.buckets.length) this.rehash(this.live);
  }

  /**
   * Puts `id` in bucket `at`, found by the owner's probe (an EMPTY or DELETED bucket of the
   * probe path of `hash`, after `prepareInsert`): an insert with a single probe.
   */
  insertAt(at: number, id: number, hash: number): void {
    this.ensureIds(id + 1);
    this.hashes[id] = hash;
    this.present[id] = 1;
    if (this.buckets[2 * at] === EMPTY) this.used++;
    this.buckets[2 * at] = id;
    this.buckets[2 * at + 1] = hash;
    this.live++;
    if (this.filter !== null) this.addToFilter(hash);
  }

  /**
   * Gives every id the number `newId[id]` (all live ids must have one, distinct, below `limit`),
   * in place: the buckets keep their places, as the hashes do not change.
   */
  renumber(newId: Int32Array, limit: number): void {
    const buckets = this.buckets;
    for (let at = 0; at < buckets.length; at += 2) {
      const id = buckets[at]!;
      if (id >= 0) buckets[at] = newId[id]!;
    }
    const hashes = new Int32Array(Math.max(limit, 256));
    const present = new Uint8Array(hashes.length);
    for (let id = 0; id < this.present.length; id++) {
      if (this.present[id] !== 1) continue;
      hashes[newId[id]!] = this.hashes[id]!;
      present[newId[id]!] = 1;
    }
    this.hashes = hashes;
    this.present = present;
  }

  remove(id: number): void {
    if (this.present[id] !== 1) return;
    const mask = this.mask;
    let at = this.hashes[id]! & mask;
    while (this.buckets[2 * at] !== id) at = (at + 1) & mask;
    this.buckets[2 * at] = DELETED;
    this.present[id] = 0;
    this.live--;
  }

  private ensureIds(needed: number): void {
    if (needed <= this.hashes.length) return;
    const capacity = Math.max(needed, this.hashes.length * 2);
    const hashes = new Int32Array(capacity);
    hashes.set(this.hashes);
    this.hashes = hashes;
    const present = new Uint8Array(capacity);
    present.set(this.present);
    this.present = present;
  }

  private place(id: number, hash: number): void {
    const mask = this.mask;
    let at = hash & mask;
    while (this.buckets[2 * at]! >= 0) at = (at + 1) & mask;
    if (this.buckets[2 * at] === EMPTY) this.used++;
    this.buckets[2 * at] = id;
    this.buckets[2 * at + 1] = hash;
  }

  // Sized from the live ids (load ≤ 1/4 after; ≤ 1/2 for `reserve`), so it also clears the DELETED
  // markers.
  private rehash(live: number, spread = 4): void {
    let capacity = 1024;
    while (capacity < (live + 1) * spread) capacity *= 2;
    this.buckets = new Int32Array(2 * capacity).fill(EMPTY);
    this.used = 0;
    for (let id = 0; id < this.present.length; id++) {
      if (this.present[id] === 1) this.place(id, this.hashes[id]!);
    }
  }

  // Rebuilt from the live ids (so removed ones stop answering) once it has taken FILTER_LOAD keys
  // per word; a rebuild leaves it between half full and full.
  // A filter under SPARSE_FILTER_WORDS takes SPARSE_FILTER_LOAD keys a word instead (filterLoad).
  private addToFilter(hash: number): void {
    const words = this.filterMask + 1;
    if (++this.filterAdded > filterLoad(words) * words) this.rebuildFilter();
    else this.filter![(hash >>> 7) & this.filterMask]! |= filterBits(hash);
  }

  private rebuildFilter(): void {
    let words = 64;
    while (words * filterLoad(words) < this.live) words *= 2;
    const filter = new Int32Array(words);
    const mask = words - 1;
    for (let id = 0; id < this.present.length; id++) {
      if (this.present[id] !== 1) continue;
      const hash = this.hashes[id]!;
      filter[(hash >>> 7) & mask]! |= filterBits(hash);
    }
    this.filter = filter;
    this.filterMask = mask;
    this.filterAdded = this.live;
  }
}

/**
 * Keys per filter word before a rebuild. Three bits a key let the filter be half the size of a
 * two-bit one for the same false hits: 256 KB for 300,000 keys, which leaves room for the rest
 * of an item's work in a 512 KB L2 (AMD EPYC), where a 512 KB filter missed it on every word.
 */
const FILTER_LOAD = 6;
/**
 * Below 128 KB the filter is kept sparser, at most two keys a word: it still fits in cache, and
 * each false hit it spares costs a probe of the buckets. Large vocabularies (a million monitors)
 * are sized by FILTER_LOAD. The measurements are in docs/PERFORMANCE.md.
 */
const SPARSE_FILTER_LOAD = 2;
const SPARSE_FILTER_WORDS = 32768;

/** Keys a filter of `words` 32-bit words takes before it is rebuilt larger. */
const filterLoad = (words: number): number =>
  words < SPARSE_FILTER_WORDS ? SPARSE_FILTER_LOAD : FILTER_LOAD;

/** Three bits of a filter word, from bits of the hash the word index does not use. */
function filterBits(hash: number): number {
  const mixed = Math.imul(hash, 0x9e3779b1);
  return (1 << (mixed >>> 27)) | (1 << ((mixed >>> 22) & 31)) | (1 << ((mixed >>> 17) & 31));
}
