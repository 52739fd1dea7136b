export const EMPTY = -1;
const DELETED = -2;

/**
 * The bucket array of an open-addressing hash table over small int ids (terms, monitors,
 * queries): 4 bytes a bucket and 4 a hash, where a Map costs a few dozen bytes an entry. The
 * owner keeps the keys and probes with its own equality:
 *   for (let at = hash & mask; ; at = (at + 1) & mask) { id = buckets[at]; … }
 */
export class OpenHashIndex {
  buckets = new Int32Array(1024).fill(EMPTY);
  hashes = new Int32Array(256);
  private present = new Uint8Array(256);
  private used = 0;
  private live = 0;

  get mask(): number {
    return this.buckets.length - 1;
  }

  insert(id: number, hash: number): void {
    if ((this.used + 1) * 2 > this.buckets.length) this.rehash();
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
    const mask = this.mask;
    let at = hash & mask;
    while (this.buckets[at]! >= 0) at = (at + 1) & mask;
    if (this.buckets[at] === EMPTY) this.used++;
    this.buckets[at] = id;
    this.live++;
  }

  remove(id: number): void {
    if (this.present[id] !== 1) return;
    const mask = this.mask;
    let at = this.hashes[id]! & mask;
    while (this.buckets[at] !== id) at = (at + 1) & mask;
    this.buckets[at] = DELETED;
    this.present[id] = 0;
    this.live--;
  }

  // Sized from the live ids, so it also clears the DELETED markers removals leave.
  private rehash(): void {
    let capacity = 1024;
    while (capacity < (this.live + 1) * 4) capacity *= 2;
    this.buckets = new Int32Array(capacity).fill(EMPTY);
    this.used = 0;
    const mask = capacity - 1;
    for (let id = 0; id < this.present.length; id++) {
      if (this.present[id] !== 1) continue;
      let at = this.hashes[id]! & mask;
      while (this.buckets[at] !== EMPTY) at = (at + 1) & mask;
      this.buckets[at] = id;
      this.used++;
    }
  }
}
