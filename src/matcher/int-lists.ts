import { Int32Arena } from './int32-arena.ts';

/**
 * Many growable lists of int pairs in one arena, each named by a small int (a term's postings:
 * query and guard). A list doubles into a new block when full; removal moves the last entry into
 * the gap. Offset, length and capacity of list k sit in `meta[stride·k …]`, followed by
 * `stride − 3` ints the owner keeps with the list (see `extra`), so reaching a list and what the
 * owner knows about it costs one cache line.
 */
export class IntLists {
  private readonly arena = new Int32Arena();
  readonly stride: number;
  private metaData: Int32Array;

  constructor(stride = 4) {
    this.stride = stride;
    this.metaData = new Int32Array(stride * 256);
  }

  get data(): Int32Array {
    return this.arena.data;
  }

  /** `[offset, length, capacity, owner's ints…]` per list; read it directly on hot paths. */
  get meta(): Int32Array {
    return this.metaData;
  }

  offsetOf(list: number): number {
    return this.metaData[this.stride * list]!;
  }

  /** Entries in the list. */
  lengthOf(list: number): number {
    return this.stride * list < this.metaData.length ? this.metaData[this.stride * list + 1]! : 0;
  }

  /** The owner's `slot`th int (from 0) kept with the list; 0 until set. */
  extra(list: number, slot = 0): number {
    const at = this.stride * list + 3 + slot;
    return at < this.metaData.length ? this.metaData[at]! : 0;
  }

  setExtra(list: number, value: number, slot = 0): void {
    this.ensure(list + 1);
    this.metaData[this.stride * list + 3 + slot] = value;
  }

  /** Makes room for lists 0 … count − 1. */
  ensure(count: number): void {
    if (this.stride * count <= this.metaData.length) return;
    let capacity = this.metaData.length / this.stride;
    while (capacity < count) capacity *= 2;
    const meta = new Int32Array(this.stride * capacity);
    meta.set(this.metaData);
    this.metaData = meta;
  }

  /** Reserves room for `capacity` entries in an empty list (a bulk load knows its sizes). */
  reserve(list: number, capacity: number): void {
    this.ensure(list + 1);
    const meta = this.metaData;
    const at = this.stride * list;
    if (meta[at + 1] !== 0 || meta[at + 2]! >= capacity) return;
    if (meta[at + 2]! > 0) this.arena.release(meta[at]!, 2 * meta[at + 2]!);
    meta[at] = this.arena.alloc(2 * capacity);
    meta[at + 2] = capacity;
  }

  /** Appends the pair (first, second); returns its index in the list. */
  push(list: number, first: number, second: number): number {
    this.ensure(list + 1);
    const meta = this.metaData;
    const at = this.stride * list;
    const length = meta[at + 1]!;
    let capacity = meta[at + 2]!;
    if (length === capacity) {
      const previous = meta[at]!;
      capacity = capacity === 0 ? 1 : capacity * 2;
      const offset = this.arena.alloc(2 * capacity);
      if (length > 0) {
        this.arena.data.copyWithin(offset, previous, previous + 2 * length);
        this.arena.release(previous, 2 * length);
      }
      meta[at] = offset;
      meta[at + 2] = capacity;
    }
    const entry = meta[at]! + 2 * length;
    const data = this.arena.data;
    data[entry] = first;
    data[entry + 1] = second;
    meta[at + 1] = length + 1;
    return length;
  }

  /** Removes the entry at `index`; the last entry moves into its place. */
  removeAt(list: number, index: number): void {
    const meta = this.metaData;
    const at = this.stride * list;
    const offset = meta[at]!;
    const last = meta[at + 1]! - 1;
    if (index !== last) {
      this.arena.data.copyWithin(offset + 2 * index, offset + 2 * last, offset + 2 * last + 2);
    }
    meta[at + 1] = last;
    if (last === 0) {
      this.arena.release(offset, 2 * meta[at + 2]!);
      meta[at + 2] = 0;
    }
  }

  /** The second value of the entry at `index`. */
  secondAt(list: number, index: number): number {
    return this.arena.data[this.offsetOf(list) + 2 * index + 1]!;
  }

  /** The index of the last entry whose first value is `value`, or -1. */
  indexOf(list: number, value: number): number {
    const offset = this.offsetOf(list);
    const data = this.arena.data;
    for (let index = this.lengthOf(list) - 1; index >= 0; index--) {
      if (data[offset + 2 * index] === value) return index;
    }
    return -1;
  }
}
