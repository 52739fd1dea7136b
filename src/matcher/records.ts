// The layouts the index's typed arrays share between writing (monitor-index.ts), reading an item
// (item-analysis.ts) and verifying it (verify.ts), and the growth helpers they all use.

// Query records: REC ints per query, one cache line, holding everything `match` reads about a
// candidate: the stamp that dedupes it, its flags, where its member ids are, and its program
// inline when that fits (almost always; otherwise in the `code` arena).
export const REC = 16;
export const R_STAMP = 0;
export const R_FLAGS = 1;
export const R_MEMBERS = 2;
export const R_COUNT = 3;
export const R_CAPACITY = 4;
/** Offset in `code` of a program too long to be inline. */
export const R_PROGRAM = 5;
/** The term of a SIMPLE or one-anchor query; for MULTI, the offset of [n, terms…] in `code`. */
export const R_ANCHOR = 6;
export const R_CODE = 8;
export const INLINE_INTS = REC - R_CODE;

/** A lone word or prefix, on every source: matched by its term alone, no program. */
export const F_SIMPLE = 1;
/** No anchor: verified on every item. */
export const F_ALWAYS = 2;
/** Several anchors (OR): its posting entries are stored as ~query and deduped by stamp. */
export const F_MULTI = 4;
export const F_INLINE = 8;

// Term records: the posting list of term t sits at postings.meta[TERM · t …] as [offset, length,
// capacity], followed by 1 + its lone-word query (0: none) and its key when that is up to
// KEY_CHARS ASCII characters: [length, 4 characters a word × 3]. A word of an item is then found
// and its key checked in the line that also leads to its postings.
export const TERM = 8;
export const T_SIMPLE = 3;
export const T_KEY = 4;
export const KEY_CHARS = 12;
/** T_KEY of a term whose key is compared as a string (long, not ASCII, or a prefix/meta key). */
export const KEY_STRING = -1;

export function grownInt32(
  array: Int32Array<ArrayBuffer>,
  needed: number,
): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let capacity = array.length * 2;
  while (capacity < needed) capacity *= 2;
  const grown = new Int32Array(capacity);
  grown.set(array);
  return grown;
}

export function grownUint8(
  array: Uint8Array<ArrayBuffer>,
  needed: number,
): Uint8Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  let capacity = array.length * 2;
  while (capacity < needed) capacity *= 2;
  const grown = new Uint8Array(capacity);
  grown.set(array);
  return grown;
}
