// One growable Int32Array holding many variable-sized blocks (programs, posting lists), so a
// million monitors cost a few typed arrays instead of a million JS objects for the GC to trace.
// Freed blocks go to a free list per size class and are reused by the next block of that class.

const EXACT_CLASSES = 32;
const CLASS_COUNT = EXACT_CLASSES + 32;

/** The block size actually reserved for `size` ints: exact up to 32, then a power of two. */
export function arenaBlockSize(size: number): number {
  if (size <= EXACT_CLASSES) return Math.max(1, size);
  return 2 ** Math.ceil(Math.log2(size));
}

function sizeClass(blockSize: number): number {
  return blockSize <= EXACT_CLASSES ? blockSize : EXACT_CLASSES + Math.log2(blockSize) - 5;
}

export class Int32Arena {
  data: Int32Array;
  private top = 0;
  private readonly freeHeads = new Int32Array(CLASS_COUNT).fill(-1);

  constructor(initialCapacity = 1024) {
    this.data = new Int32Array(initialCapacity);
  }

  /** Reserves a block of at least `size` ints; its content is undefined. */
  alloc(size: number): number {
    const blockSize = arenaBlockSize(size);
    const cls = sizeClass(blockSize);
    const head = this.freeHeads[cls]!;
    if (head >= 0) {
      this.freeHeads[cls] = this.data[head]!;
      return head;
    }
    if (this.top + blockSize > this.data.length) {
      let capacity = this.data.length * 2;
      while (capacity < this.top + blockSize) capacity *= 2;
      const grown = new Int32Array(capacity);
      grown.set(this.data.subarray(0, this.top));
      this.data = grown;
    }
    const offset = this.top;
    this.top += blockSize;
    return offset;
  }

  /** Returns a block taken with `alloc(size)`. */
  release(offset: number, size: number): void {
    const cls = sizeClass(arenaBlockSize(size));
    this.data[offset] = this.freeHeads[cls]!;
    this.freeHeads[cls] = offset;
  }

  /** Ints reserved so far, free blocks included. */
  get used(): number {
    return this.top;
  }
}
