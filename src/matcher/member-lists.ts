/**
 * The monitor ids of every query, in blocks of one JS array: a query's members are side by side,
 * so reporting a popular query reads a run of one array instead of one object per query or per
 * monitor. `slots[i]` is the monitor slot of `ids[i]`, so moving an entry (swap-remove) updates
 * the moved monitor without hashing its id. Blocks are powers of two, reused through a free list
 * per size.
 */
export class MemberLists {
  readonly ids: string[] = [];
  slots = new Int32Array(1024);
  private readonly free: number[][] = [];

  /** Reserves a block of `capacity` entries (a power of two); returns its offset. */
  alloc(capacity: number): number {
    const free = this.free[31 - Math.clz32(capacity)];
    if (free !== undefined && free.length > 0) return free.pop()!;
    const offset = this.ids.length;
    for (let i = 0; i < capacity; i++) this.ids.push('');
    if (this.ids.length > this.slots.length) {
      let length = this.slots.length * 2;
      while (length < this.ids.length) length *= 2;
      const slots = new Int32Array(length);
      slots.set(this.slots);
      this.slots = slots;
    }
    return offset;
  }

  /** Returns a block; its first `used` entries are cleared so the ids can be collected. */
  release(offset: number, capacity: number, used: number): void {
    for (let i = 0; i < used; i++) this.ids[offset + i] = '';
    const cls = 31 - Math.clz32(capacity);
    while (this.free.length <= cls) this.free.push([]);
    this.free[cls]!.push(offset);
  }
}

/** The smallest power of two ≥ `count` (≥ 1). */
export function blockCapacity(count: number): number {
  return count <= 1 ? 1 : 2 ** (32 - Math.clz32(count - 1));
}
