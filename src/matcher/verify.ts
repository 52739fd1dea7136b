// Verifying a candidate query against the item just analysed (item-analysis.ts), and collecting
// the hits of its positive terms as highlights. A program is the flat int form compile.ts emits.

import {
  ALL_FIELDS,
  HAS_GAPS,
  nodeSize,
  OP_AND,
  OP_META,
  OP_NOT,
  OP_OR,
  OP_PREFIX,
  OP_SITES,
  OP_TERM,
  termWords,
} from './compile.ts';
import { type ItemAnalysis, SENTINEL } from './item-analysis.ts';
import type { Highlight, ItemField } from './monitor-index.ts';
import { grownInt32 } from './records.ts';
import { normaliseGap } from './text.ts';
import type { Vocabulary } from './vocabulary.ts';

/** A field's name by its number in the position table. */
const ITEM_FIELDS: readonly ItemField[] = ['title', 'body', 'url'];

/** Highlight arrays remembered per item to share between queries with the same hits. */
const MEMO = 16;

/**
 * Evaluates programs against one item and turns the hits of the one that matched into
 * highlights. Per item: `reset`; per candidate: `begin`, then `evaluate`, and when it holds,
 * `collect` (or `collectOccurrences` for a lone term) and `highlights`.
 */
export class Verifier {
  // The hits of the query being reported: (field, start, end) triples.
  private ranges = new Int32Array(96);
  private rangeCount = 0;
  // The hits of the highlights remembered for this item (see highlights).
  private rangeLog = new Int32Array(384);
  private rangeLogCount = 0;
  private readonly memoStart = new Int32Array(MEMO);
  private readonly memoLength = new Int32Array(MEMO);
  private readonly memoHighlights: Highlight[][] = [];
  private memoCount = 0;

  private readonly item: ItemAnalysis;
  private readonly gaps: Vocabulary;

  constructor(item: ItemAnalysis, gaps: Vocabulary) {
    this.item = item;
    this.gaps = gaps;
  }

  /** Forgets the highlights remembered for the last item. */
  reset(): void {
    this.memoCount = 0;
    this.rangeLogCount = 0;
  }

  /** Starts the hits of a new candidate. */
  begin(): void {
    this.rangeCount = 0;
  }

  /** Whether the program at `code[pc]` holds for the item. */
  evaluate(code: Int32Array, pc: number): boolean {
    const header = code[pc]!;
    switch (header & 15) {
      case OP_TERM:
        return this.matchTerm(code, pc, false);
      case OP_PREFIX:
        return this.hasOccurrence(code[pc + 1]!, (header >> 4) & 7);
      case OP_META:
        if (!this.item.namesMarked) this.item.markNames();
        return this.item.isPresent(code[pc + 1]!);
      case OP_SITES:
        return (code[pc + 1]! & this.item.itemSource) !== 0;
      case OP_NOT:
        return !this.evaluate(code, pc + 1);
      case OP_AND: {
        const end = pc + nodeSize(header);
        for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
          if (!this.evaluate(code, child)) return false;
        }
        return true;
      }
      case OP_OR: {
        const end = pc + nodeSize(header);
        for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
          if (this.evaluate(code, child)) return true;
        }
        return false;
      }
      default:
        throw new Error(`Corrupt program: op ${header & 15} at ${pc}.`);
    }
  }

  /** Pushes (field, start, end) of every hit of the positive terms below `pc`. */
  collect(code: Int32Array, pc: number): void {
    const header = code[pc]!;
    switch (header & 15) {
      case OP_TERM:
        this.matchTerm(code, pc, true);
        return;
      case OP_PREFIX:
        this.collectOccurrences(code[pc + 1]!, (header >> 4) & 7);
        return;
      case OP_AND:
      case OP_OR: {
        const end = pc + nodeSize(header);
        for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
          this.collect(code, child);
        }
        return;
      }
      default:
        return;
    }
  }

  /** Pushes every occurrence of `term` in `fields` (a bit set of field numbers). */
  collectOccurrences(term: number, fields: number): void {
    const item = this.item;
    for (let o = item.headOf(term); o >= 0; o = item.occNext[o]!) {
      const p = item.occPos[o]!;
      const field = item.posField[p]!;
      if (((1 << field) & fields) !== 0) this.pushRange(field, item.posStart[p]!, item.posEnd[p]!);
    }
  }

  /**
   * The highlights of the ranges collected; the same array as an earlier query of this item with
   * the same ranges got (a popular word's `task`, `task -foo` and `task OR bar` usually have the
   * same hits).
   */
  highlights(): Highlight[] {
    const ranges = this.ranges;
    const length = this.rangeCount;
    const known = Math.min(this.memoCount, MEMO);
    for (let k = 0; k < known; k++) {
      if (this.memoLength[k] !== length) continue;
      const start = this.memoStart[k]!;
      let i = 0;
      while (i < length && this.rangeLog[start + i] === ranges[i]) i++;
      if (i === length) return this.memoHighlights[k]!;
    }
    const highlights = toHighlights(ranges, length);
    const slot = this.memoCount++ % MEMO;
    const at = this.rangeLogCount;
    if (at + length > this.rangeLog.length) this.rangeLog = grownInt32(this.rangeLog, at + length);
    for (let i = 0; i < length; i++) this.rangeLog[at + i] = ranges[i]!;
    this.rangeLogCount = at + length;
    this.memoStart[slot] = at;
    this.memoLength[slot] = length;
    this.memoHighlights[slot] = highlights;
    return highlights;
  }

  private hasOccurrence(term: number, fields: number): boolean {
    const item = this.item;
    const slot = item.slotOf(term);
    if (slot < 0) return false;
    if (fields === ALL_FIELDS) return true;
    for (let o = item.presentHeads[slot]!; o >= 0; o = item.occNext[o]!) {
      if (((1 << item.posField[item.occPos[o]!]!) & fields) !== 0) return true;
    }
    return false;
  }

  /** Whether a word sequence occurs; with `record`, records every occurrence instead. */
  private matchTerm(code: Int32Array, pc: number, record: boolean): boolean {
    const item = this.item;
    const header = code[pc]!;
    const fields = (header >> 4) & 7;
    const n = termWords(header);
    const words = pc + 1;
    const head = item.headOf(code[words]!);
    if (head < 0) return false;
    for (let i = 1; i < n; i++) if (!item.isPresent(code[words + i]!)) return false;
    const rules = (header & HAS_GAPS) !== 0 ? words + n : -1;
    if (n === 1 && rules < 0 && fields === ALL_FIELDS && !record) return true;
    const { occNext, occPos, posField, posTerm } = item;
    let found = false;
    for (let o = head; o >= 0; o = occNext[o]!) {
      const p = occPos[o]!;
      const field = posField[p]!;
      if (((1 << field) & fields) === 0) continue;
      let i = 1;
      while (i < n && posTerm[p + i] === code[words + i]) i++;
      if (i < n) continue;
      if (rules >= 0 && !this.checkGaps(code, rules, p, n)) continue;
      if (!record) return true;
      found = true;
      const text = item.fieldTexts[field]!;
      const lead = rules >= 0 ? this.gapLength(code[rules + 2]!) : 0;
      const trail = rules >= 0 ? this.gapLength(code[rules + 3 * n + 1]!) : 0;
      this.pushRange(
        field,
        Math.max(0, item.posStart[p]! - lead),
        Math.min(text.length, item.posEnd[p + n - 1]! + trail),
      );
    }
    return found;
  }

  private gapLength(id: number): number {
    return id < 0 ? 0 : (this.gaps.keyOf(id)?.length ?? 0);
  }

  private checkGaps(code: Int32Array, rules: number, p: number, n: number): boolean {
    const { posTerm, posStart, posEnd } = this.item;
    const text = this.item.fieldTexts[this.item.posField[p]!]!;
    for (let i = 0; i <= n; i++) {
      const exact = code[rules + 3 * i] === 1;
      const headId = code[rules + 3 * i + 1]!;
      const tailId = code[rules + 3 * i + 2]!;
      if (!exact && headId < 0 && tailId < 0) continue;
      let from: number;
      let to: number;
      let edge = false;
      if (i === 0) {
        edge = posTerm[p - 1] === SENTINEL;
        from = edge ? 0 : posEnd[p - 1]!;
        to = posStart[p]!;
      } else if (i === n) {
        edge = posTerm[p + n] === SENTINEL;
        from = posEnd[p + n - 1]!;
        to = edge ? text.length : posStart[p + n]!;
      } else {
        from = posEnd[p + i - 1]!;
        to = posStart[p + i]!;
      }
      const gap = normaliseGap(text.slice(from, Math.max(from, to)));
      const head = headId < 0 ? '' : this.gaps.keyOf(headId)!;
      if (exact) {
        if (gap !== head) return false;
        continue;
      }
      const tail = tailId < 0 ? '' : this.gaps.keyOf(tailId)!;
      if (!gap.startsWith(head) || !gap.endsWith(tail)) return false;
      if (gap.length <= head.length + tail.length && !edge) return false;
    }
    return true;
  }

  private pushRange(field: number, start: number, end: number): void {
    const at = this.rangeCount;
    if (at + 3 > this.ranges.length) this.ranges = grownInt32(this.ranges, at + 3);
    this.ranges[at] = field;
    this.ranges[at + 1] = start;
    this.ranges[at + 2] = end;
    this.rangeCount = at + 3;
  }
}

// Occurrence lists run backwards (newest first), so ranges usually arrive in reverse order;
// then one pass builds the merged highlights, and only a mixed order needs a sort.
function toHighlights(ranges: Int32Array, length: number): Highlight[] {
  const count = length / 3;
  let ascending = true;
  let descending = true;
  for (let i = 3; i < length; i += 3) {
    const order = ranges[i]! - ranges[i - 3]! || ranges[i + 1]! - ranges[i - 2]!;
    if (order < 0) ascending = false;
    else if (order > 0) descending = false;
  }
  let order: number[] | null = null;
  if (!ascending && !descending) {
    order = Array.from({ length: count }, (_, i) => 3 * i);
    order.sort((a, b) => ranges[a]! - ranges[b]! || ranges[a + 1]! - ranges[b + 1]!);
  }
  const merged: Highlight[] = [];
  let field = -1;
  let start = 0;
  let end = 0;
  for (let n = 0; n < count; n++) {
    const at = order !== null ? order[n]! : ascending ? 3 * n : 3 * (count - 1 - n);
    const nextField = ranges[at]!;
    const nextStart = ranges[at + 1]!;
    const nextEnd = ranges[at + 2]!;
    if (nextField === field && nextStart <= end) {
      if (nextEnd > end) end = nextEnd;
      continue;
    }
    if (field >= 0) merged.push({ field: ITEM_FIELDS[field]!, start, end });
    field = nextField;
    start = nextStart;
    end = nextEnd;
  }
  if (field >= 0) merged.push({ field: ITEM_FIELDS[field]!, start, end });
  return merged;
}
