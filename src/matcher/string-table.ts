import { EMPTY, OpenHashIndex } from './open-hash-index.ts';
import { hashWord } from './text.ts';

/**
 * Strings under caller-chosen int ids, found by value. `findAscii` probes with a slice of an
 * item's text and the hash `scanWords` computed while scanning it, so looking up the words no
 * monitor uses (most of them) allocates nothing; with `filtered`, it usually does not even reach
 * the buckets (see OpenHashIndex).
 */
export class StringTable {
  /** The buckets (and filter), for an owner that probes with its own equality. */
  readonly index: OpenHashIndex;
  private readonly keys: (string | undefined)[] = [];

  constructor(filtered = false) {
    this.index = new OpenHashIndex(filtered);
  }

  /** Sizes the table for `count` more keys. */
  reserve(count: number): void {
    this.index.reserve(count);
  }

  insert(id: number, key: string, hash = hashWord(key)): void {
    while (this.keys.length <= id) this.keys.push(undefined);
    this.keys[id] = key;
    this.index.insert(id, hash);
  }

  /** Inserts `key` under `id` unless it is there already (then returns false); one probe. */
  insertNew(id: number, key: string, hash = hashWord(key)): boolean {
    const index = this.index;
    index.prepareInsert();
    const { buckets, mask } = index;
    let free = -1;
    let at = hash & mask;
    for (; ; at = (at + 1) & mask) {
      const other = buckets[2 * at]!;
      if (other === EMPTY) break;
      if (other < 0) {
        if (free < 0) free = at;
      } else if (buckets[2 * at + 1] === hash && this.keys[other] === key) return false;
    }
    while (this.keys.length <= id) this.keys.push(undefined);
    this.keys[id] = key;
    index.insertAt(free >= 0 ? free : at, id, hash);
    return true;
  }

  remove(id: number): void {
    if (this.keys[id] === undefined) return;
    this.index.remove(id);
    this.keys[id] = undefined;
  }

  /** Calls `visit` with every key and its id. */
  forEach(visit: (key: string, id: number) => void): void {
    this.keys.forEach((key, id) => {
      if (key !== undefined) visit(key, id);
    });
  }

  keyOf(id: number): string | undefined {
    return this.keys[id];
  }

  /** The id of `key`, or -1; `hash` is `hashWord(key)`. */
  find(key: string, hash = hashWord(key)): number {
    const index = this.index;
    if (!index.mayContain(hash)) return -1;
    const { buckets, mask } = index;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = buckets[2 * at]!;
      if (id === EMPTY) return -1;
      if (id >= 0 && buckets[2 * at + 1] === hash && this.keys[id] === key) return id;
    }
  }

  /** The id of the lower case of `text[start, end)` (ASCII letters and digits), or -1. */
  findAscii(text: string, start: number, end: number, hash: number): number {
    const index = this.index;
    if (!index.mayContain(hash)) return -1;
    const { buckets, mask } = index;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = buckets[2 * at]!;
      if (id === EMPTY) return -1;
      if (id < 0 || buckets[2 * at + 1] !== hash) continue;
      const key = this.keys[id]!;
      if (key.length !== length) continue;
      let k = 0;
      while (k < length) {
        let code = text.charCodeAt(start + k);
        if (code >= 65 && code <= 90) code += 32;
        if (code !== key.charCodeAt(k)) break;
        k++;
      }
      if (k === length) return id;
    }
  }
}
