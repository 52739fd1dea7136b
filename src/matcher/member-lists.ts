/**
 * The monitor ids of every query, in blocks of one JS array: a query's members are side by side,
 * so reporting a popular query reads a run of one array instead of one object per query or per
 * monitor. `slots[i]` is the monitor slot of `ids[i]`, so moving an entry (swap-remove) updates
 * the moved monitor without hashing its id. Blocks are powers of two, reused through a free list
 * per size.
 */
export class MemberLists {
  ids: string[];
  slots: Int32Array;
  private top = 0;
  private readonly free: number[][] = [];

  /** `capacity`: the entries to make room for at once (a bulk load knows them). */
  constructor(capacity = 1024) {
    this.ids = new Array<string>(capacity).fill('');
    this.slots = new Int32Array(capacity);
  }

  /** Reserves a block of `capacity` entries (a power of two); returns its offset. */
  alloc(capacity: number): number {
    const free = this.free[31 - Math.clz32(capacity)];
    if (free !== undefined && free.length > 0) return free.pop()!;
    const offset = this.top;
    this.top += capacity;
    if (this.top > this.ids.length) this.grow(this.top);
    return offset;
  }

  /** Returns a block; its first `used` entries are cleared so the ids can be collected. */
  release(offset: number, capacity: number, used: number): void {
    for (let i = 0; i < used; i++) this.ids[offset + i] = '';
    const cls = 31 - Math.clz32(capacity);
    while (this.free.length <= cls) this.free.push([]);
    this.free[cls]!.push(offset);
  }

  private grow(needed: number): void {
    let length = Math.max(1024, this.ids.length * 2);
    while (length < needed) length *= 2;
    const ids = new Array<string>(length).fill('');
    for (let i = 0; i < this.ids.length; i++) ids[i] = this.ids[i]!;
    this.ids = ids;
    const slots = new Int32Array(length);
    slots.set(this.slots);
    this.slots = slots;
  }
}

/** The smallest power of two ≥ `count` (≥ 1). */
export function blockCapacity(count: number): number {
  return count <= 1 ? 1 : 2 ** (32 - Math.clz32(count - 1));
}
