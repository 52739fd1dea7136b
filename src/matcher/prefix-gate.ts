// The prefix terms (`rust*`) and the gate that lets an item's word look them up only when it may
// begin one. Most words begin none, so the gate is read for every word and must cost little; the
// lookups behind it run for the few words it lets through.

import type { ItemAnalysis } from './item-analysis.ts';
import { OpenHashIndex } from './open-hash-index.ts';
import { StringTable } from './string-table.ts';
import { FNV_OFFSET, isAsciiWordCode, nextHash } from './text.ts';

/**
 * The gate's key of a word that starts with the ASCII letters or digits a, b, c: their low five
 * bits each (a letter of either case alike; digits share keys with letters, which only wastes a
 * probe), so 15 bits.
 */
const GATE_KEYS = 1 << 15;
export const gateKey = (a: number, b: number, c: number): number =>
  ((a & 31) << 10) | ((b & 31) << 5) | (c & 31);

/**
 * The prefix terms, by prefix, and two filters in front of them: the gate on a word's first three
 * characters, then the hash of its first `shortest` characters. The fields are read directly on
 * the hot path (item-analysis.ts); only `register` and `unregister` write them.
 */
export class PrefixGate {
  /** Prefix terms by their prefix (without the key's namespace), under the terms' ids. */
  readonly prefixes = new StringTable();
  /**
   * The hashes of the prefix terms' first `shortest` characters, under the terms' ids: a word
   * that starts otherwise skips the prefix lookups (one filter probe).
   */
  heads = new OpenHashIndex(true);
  /**
   * Whether a prefix term may begin an ASCII word, by the `gateKey` of its first three letters or
   * digits (a word of one or two repeats its last), one bit a key; a word whose key is closed
   * skips even the hash. Prefixes of one character keep it open (`onePrefixes`).
   */
  readonly bits = new Int32Array(GATE_KEYS >>> 5);
  /** How many prefix terms each open key has (few, touched only by changes). */
  private readonly keyCounts = new Map<number, number>();
  onePrefixes = 0;
  count = 0;
  // The shortest and longest bounds only widen; they stay correct, if loose, after removals.
  shortest = 0;
  longest = 0;

  register(prefix: string, id: number): void {
    this.prefixes.insert(id, prefix);
    this.countKeys(prefix, 1);
    const shortest = this.count === 0 ? prefix.length : Math.min(this.shortest, prefix.length);
    this.longest = Math.max(this.longest, prefix.length);
    this.count++;
    if (shortest === this.shortest) {
      this.heads.insert(id, this.headHash(prefix, 0, prefix.length));
      return;
    }
    this.shortest = shortest;
    this.heads = new OpenHashIndex(true);
    this.prefixes.forEach((key, prefixId) => {
      this.heads.insert(prefixId, this.headHash(key, 0, key.length));
    });
  }

  unregister(id: number): void {
    this.countKeys(this.prefixes.keyOf(id)!, -1);
    this.prefixes.remove(id);
    this.heads.remove(id);
    this.count--;
  }

  /**
   * The hash of the lower case of the first `shortest` characters of `text[start, end)` (of all
   * of them when it is shorter): what `heads` holds for each prefix term.
   */
  headHash(text: string, start: number, end: number): number {
    const stop = Math.min(end, start + this.shortest);
    let hash = FNV_OFFSET;
    for (let k = start; k < stop; k++) hash = nextHash(hash, text.charCodeAt(k));
    return hash;
  }

  /**
   * Records `position` under every prefix term that `text[start, end)` (lower-cased) starts with;
   * `prefixHash` is its `headHash`. The caller probes `heads` with it first, in its own loop, so a
   * word that begins no prefix term's head costs no call.
   */
  match(
    text: string,
    start: number,
    end: number,
    prefixHash: number,
    position: number,
    item: ItemAnalysis,
  ): void {
    const longest = Math.min(end - start, this.longest);
    let hash = prefixHash;
    for (let k = this.shortest; k <= longest; k++) {
      if (k > this.shortest) hash = nextHash(hash, text.charCodeAt(start + k - 1));
      const term = this.prefixes.findAscii(text, start, start + k, hash);
      if (term >= 0) item.addOccurrence(term, position);
    }
  }

  private countKeys(prefix: string, delta: number): void {
    if (prefix.length < 2) {
      this.onePrefixes += delta;
      return;
    }
    // A prefix that does not begin with ASCII letters or digits begins no ASCII word.
    const first = prefix.charCodeAt(0);
    const second = prefix.charCodeAt(1);
    if (!isAsciiWordCode(first) || !isAsciiWordCode(second)) return;
    if (prefix.length === 2) {
      // Any third character, or none (a word of two letters repeats its second).
      for (let third = 0; third < 32; third++) this.countKey(gateKey(first, second, third), delta);
      return;
    }
    const third = prefix.charCodeAt(2);
    if (isAsciiWordCode(third)) this.countKey(gateKey(first, second, third), delta);
  }

  private countKey(key: number, delta: number): void {
    const count = (this.keyCounts.get(key) ?? 0) + delta;
    if (count > 0) {
      this.keyCounts.set(key, count);
      this.bits[key >>> 5]! |= 1 << (key & 31);
    } else {
      this.keyCounts.delete(key);
      this.bits[key >>> 5]! &= ~(1 << (key & 31));
    }
  }
}
