import { hashWord } from './text.ts';

const EMPTY = -1;
const DELETED = -2;

/**
 * An open-addressing hash table from words to term ids that can be probed with a slice of an
 * item's text and the hash `scanWords` computed while scanning it, so looking up the words no
 * monitor uses (most of them) allocates nothing.
 */
export class TermTable {
  private slots = new Int32Array(1024).fill(EMPTY);
  private hashes = new Int32Array(256);
  private readonly keys: (string | undefined)[] = [];
  private used = 0;
  private live = 0;

  insert(id: number, word: string): void {
    if ((this.used + 1) * 2 > this.slots.length) this.rehash();
    const hash = hashWord(word);
    if (id >= this.hashes.length) {
      const grown = new Int32Array(Math.max(id + 1, this.hashes.length * 2));
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = hash;
    this.keys[id] = word;
    const mask = this.slots.length - 1;
    let at = hash & mask;
    while (this.slots[at]! >= 0) at = (at + 1) & mask;
    if (this.slots[at] === EMPTY) this.used++;
    this.slots[at] = id;
    this.live++;
  }

  remove(id: number): void {
    const word = this.keys[id];
    if (word === undefined) return;
    const mask = this.slots.length - 1;
    let at = this.hashes[id]! & mask;
    while (this.slots[at] !== id) at = (at + 1) & mask;
    this.slots[at] = DELETED;
    this.keys[id] = undefined;
    this.live--;
  }

  /** The id of the lower case of `text[start, end)` (ASCII letters and digits), or -1. */
  findAscii(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = this.slots[at]!;
      if (id === EMPTY) return -1;
      if (id < 0 || this.hashes[id] !== hash) continue;
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

  /** The id of a normalised word, or -1. */
  find(word: string): number {
    const hash = hashWord(word);
    const mask = this.slots.length - 1;
    for (let at = hash & mask; ; at = (at + 1) & mask) {
      const id = this.slots[at]!;
      if (id === EMPTY) return -1;
      if (id >= 0 && this.hashes[id] === hash && this.keys[id] === word) return id;
    }
  }

  // Also clears the DELETED markers that removals leave behind.
  private rehash(): void {
    let capacity = 1024;
    while (capacity < (this.live + 1) * 4) capacity *= 2;
    this.slots = new Int32Array(capacity).fill(EMPTY);
    this.used = 0;
    const mask = capacity - 1;
    for (let id = 0; id < this.keys.length; id++) {
      if (this.keys[id] === undefined) continue;
      let at = this.hashes[id]! & mask;
      while (this.slots[at] !== EMPTY) at = (at + 1) & mask;
      this.slots[at] = id;
      this.used++;
    }
  }
}
