import { Int32Arena } from './int32-arena.ts';

/**
 * Many growable lists in one arena, each named by a small int, each entry `width` ints (a
 * posting and its guard). A list doubles into a new block when full; removal moves the last
 * entry into the gap. Offset, length and capacity of a list sit side by side in `meta`, so
 * reaching a list costs one cache line.
 */
export class IntLists {
  private readonly arena = new Int32Arena();
  private meta = new Int32Array(3 * 256);
  private readonly width: number;

  constructor(width = 1) {
    this.width = width;
  }

  get data(): Int32Array {
    return this.arena.data;
  }

  offsetOf(list: number): number {
    return this.meta[3 * list]!;
  }

  /** Entries in the list. */
  lengthOf(list: number): number {
    return 3 * list < this.meta.length ? this.meta[3 * list + 1]! : 0;
  }

  /** Appends an entry (`width` values); returns its index in the list. */
  push(list: number, first: number, second = 0): number {
    if (3 * list >= this.meta.length) this.grow(list + 1);
    const meta = this.meta;
    const width = this.width;
    const length = meta[3 * list + 1]!;
    let capacity = meta[3 * list + 2]!;
    if (length === capacity) {
      const previous = meta[3 * list]!;
      capacity = capacity === 0 ? 1 : capacity * 2;
      const offset = this.arena.alloc(capacity * width);
      if (length > 0) {
        this.arena.data.copyWithin(offset, previous, previous + length * width);
        this.arena.release(previous, length * width);
      }
      meta[3 * list] = offset;
      meta[3 * list + 2] = capacity;
    }
    const at = meta[3 * list]! + length * width;
    this.arena.data[at] = first;
    if (width === 2) this.arena.data[at + 1] = second;
    meta[3 * list + 1] = length + 1;
    return length;
  }

  /** Removes the entry at `index`; returns the first value of the entry moved into its place, or -1. */
  removeAt(list: number, index: number): number {
    const meta = this.meta;
    const width = this.width;
    const offset = meta[3 * list]!;
    const last = meta[3 * list + 1]! - 1;
    const data = this.arena.data;
    let moved = -1;
    if (index !== last) {
      moved = data[offset + last * width]!;
      data.copyWithin(offset + index * width, offset + last * width, offset + (last + 1) * width);
    }
    meta[3 * list + 1] = last;
    if (last === 0) {
      this.arena.release(offset, meta[3 * list + 2]! * width);
      meta[3 * list + 2] = 0;
    }
    return moved;
  }

  /** The index of the last entry whose first value is `value`, or -1. */
  indexOf(list: number, value: number): number {
    const offset = this.offsetOf(list);
    const data = this.arena.data;
    for (let index = this.lengthOf(list) - 1; index >= 0; index--) {
      if (data[offset + index * this.width] === value) return index;
    }
    return -1;
  }

  private grow(needed: number): void {
    let capacity = this.meta.length / 3;
    while (capacity < needed) capacity *= 2;
    const meta = new Int32Array(3 * capacity);
    meta.set(this.meta);
    this.meta = meta;
  }
}
