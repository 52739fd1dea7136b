import { Int32Arena } from './int32-arena.ts';

/**
 * Many growable lists of ints (posting lists, member lists) in one arena, each named by a
 * small int. A list doubles in place of a new block when full; removal swaps in the last value.
 */
export class IntLists {
  private readonly arena = new Int32Arena();
  private offsets = new Int32Array(256);
  private lengths = new Int32Array(256);
  private capacities = new Int32Array(256);

  get data(): Int32Array {
    return this.arena.data;
  }

  offsetOf(list: number): number {
    return this.offsets[list]!;
  }

  lengthOf(list: number): number {
    return list < this.lengths.length ? this.lengths[list]! : 0;
  }

  /** Appends `value`; returns its index in the list. */
  push(list: number, value: number): number {
    if (list >= this.offsets.length) this.grow(list + 1);
    const length = this.lengths[list]!;
    let capacity = this.capacities[list]!;
    if (length === capacity) {
      const previous = this.offsets[list]!;
      capacity = capacity === 0 ? 1 : capacity * 2;
      const offset = this.arena.alloc(capacity);
      if (length > 0) {
        this.arena.data.copyWithin(offset, previous, previous + length);
        this.arena.release(previous, length);
      }
      this.offsets[list] = offset;
      this.capacities[list] = capacity;
    }
    this.arena.data[this.offsets[list]! + length] = value;
    this.lengths[list] = length + 1;
    return length;
  }

  /** Removes the value at `index`; returns the value moved into its place, or -1 if none was. */
  removeAt(list: number, index: number): number {
    const offset = this.offsets[list]!;
    const last = this.lengths[list]! - 1;
    const data = this.arena.data;
    const moved = index === last ? -1 : data[offset + last]!;
    if (moved >= 0) data[offset + index] = moved;
    this.lengths[list] = last;
    if (last === 0) {
      this.arena.release(offset, this.capacities[list]!);
      this.capacities[list] = 0;
    }
    return moved;
  }

  /** The index of the last occurrence of `value`, or -1. */
  indexOf(list: number, value: number): number {
    const offset = this.offsets[list]!;
    const data = this.arena.data;
    for (let at = offset + this.lengthOf(list) - 1; at >= offset; at--) {
      if (data[at] === value) return at - offset;
    }
    return -1;
  }

  /** Removes one occurrence of `value` (a scan from the end); false when absent. */
  remove(list: number, value: number): boolean {
    const offset = this.offsets[list]!;
    const data = this.arena.data;
    for (let at = offset + this.lengths[list]! - 1; at >= offset; at--) {
      if (data[at] === value) {
        this.removeAt(list, at - offset);
        return true;
      }
    }
    return false;
  }

  private grow(needed: number): void {
    let capacity = this.offsets.length * 2;
    while (capacity < needed) capacity *= 2;
    for (const name of ['offsets', 'lengths', 'capacities'] as const) {
      const grown = new Int32Array(capacity);
      grown.set(this[name]);
      this[name] = grown;
    }
  }
}
