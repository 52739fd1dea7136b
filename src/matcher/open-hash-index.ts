export const EMPTY = -1;
const DELETED = -2;

/**
 * The buckets of an open-addressing hash table over small int ids (terms, monitors, queries):
 * 8 bytes a bucket where a Map costs a few dozen an entry. A bucket is the pair
 * [id, hash] in `buckets`, so a probe reads one cache line. The owner keeps the keys and
 * probes with its own equality:
 *   for (let at = hash & mask; ; at = (at + 1) & mask) { id = buckets[2 * at]; … }
 */
export class OpenHashIndex {
  buckets = new Int32Array(2 * 1024).fill(EMPTY);
  private hashes = new Int32Array(256);
  private present = new Uint8Array(256);
  private used = 0;
  private live = 0;

  get mask(): number {
    return (this.buckets.length >> 1) - 1;
  }

  insert(id: number, hash: number): void {
    if ((this.used + 1) * 4 > this.buckets.length) this.rehash();
    if (id >= this.hashes.length) {
      const capacity = Math.max(id + 1, this.hashes.length * 2);
      const hashes = new Int32Array(capacity);
      hashes.set(this.hashes);
      this.hashes = hashes;
      const present = new Uint8Array(capacity);
      present.set(this.present);
      this.present = present;
    }
    this.hashes[id] = hash;
    this.present[id] = 1;
    this.place(id, hash);
    this.live++;
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

  private place(id: number, hash: number): void {
    const mask = this.mask;
    let at = hash & mask;
    while (this.buckets[2 * at]! >= 0) at = (at + 1) & mask;
    if (this.buckets[2 * at] === EMPTY) this.used++;
    this.buckets[2 * at] = id;
    this.buckets[2 * at + 1] = hash;
  }

  // Sized from the live ids (load ≤ 1/4 after), so it also clears the DELETED markers.
  private rehash(): void {
    let capacity = 1024;
    while (capacity < (this.live + 1) * 4) capacity *= 2;
    this.buckets = new Int32Array(2 * capacity).fill(EMPTY);
    this.used = 0;
    for (let id = 0; id < this.present.length; id++) {
      if (this.present[id] === 1) this.place(id, this.hashes[id]!);
    }
  }
}
