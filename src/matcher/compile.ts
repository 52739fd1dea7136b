// A query compiles to a small program of ints. Each node starts with one header int: the op
// (4 bits), the fields a text node may match in (3 bits), HAS_GAPS (1 bit) and, above bit 8, the
// size of the whole node in ints, so AND/OR can skip a child. After the header:
//   TERM    word ids × n, then (if HAS_GAPS) (exact, head gap id, tail gap id) × (n + 1)
//   PREFIX  prefix term id          META  community, author or signal term id  SITES  source mask
//   AND/OR  children…               NOT   child
// A lone word is 2 ints, a two-word phrase 3, `rust -game` 6: most programs fit in the 8 ints a
// query record keeps inline (monitor-index.ts), so verifying a query reads one cache line.

import { type GapRule, type QueryNode, SOURCES, type Source } from './query-ast.ts';

export const OP_TERM = 1;
export const OP_PREFIX = 2;
export const OP_META = 3;
export const OP_SITES = 4;
export const OP_AND = 5;
export const OP_OR = 6;
export const OP_NOT = 7;

export const FIELD_TITLE = 1;
export const ALL_FIELDS = 7;
export const HAS_GAPS = 1 << 7;
const SIZE_SHIFT = 8;

/** The size in ints of the node whose header is `header`. */
export const nodeSize = (header: number): number => header >>> SIZE_SHIFT;

/** The number of words of a TERM node. */
export const termWords = (header: number): number =>
  (header & HAS_GAPS) === 0 ? nodeSize(header) - 1 : (nodeSize(header) - 4) >> 2;

/** One bit per source, in the order of the sources' list (at most 31 sites). */
export const SOURCE_BITS = Object.fromEntries(
  SOURCES.map((source, index) => [source, 1 << index]),
) as Readonly<Record<Source, number>>;

/** Vocabulary keys; `\u0001` never occurs in a word, so the namespaces cannot collide. */
export const prefixKey = (prefix: string): string => `\u0001p${prefix}`;
export const communityKey = (name: string): string => `\u0001c${name}`;
export const authorKey = (name: string): string => `\u0001a${name}`;
/** An item's signal (`intent:question` → `\u0001sintent:question`). */
export const signalKey = (signal: string, value: string): string => `\u0001s${signal}:${value}`;

export type KeyKind = 'word' | 'prefix' | 'community' | 'author' | 'signal';

/** Which of the namespaces above `key` is in ('word' for a plain word or sequence). */
export function keyKind(key: string): KeyKind {
  if (key.charCodeAt(0) !== 1) return 'word';
  switch (key.charCodeAt(1)) {
    case 112:
      return 'prefix';
    case 99:
      return 'community';
    case 97:
      return 'author';
    case 115:
      return 'signal';
    default:
      return 'word';
  }
}

/** How compiled programs reach the index's vocabularies (each call takes one reference). */
export interface Interner {
  term(key: string): number;
  gap(text: string): number;
}

/** Appends the program of `node` to `out`. */
export function emitProgram(
  node: QueryNode,
  out: number[],
  intern: Interner,
  fields = ALL_FIELDS,
): void {
  const at = out.length;
  let header: number;
  switch (node.type) {
    case 'term': {
      const { words, gaps } = node.sequence;
      header = OP_TERM | (fields << 4) | (gaps === null ? 0 : HAS_GAPS);
      out.push(0);
      for (const word of words) out.push(intern.term(word));
      if (gaps !== null) for (const rule of gaps) emitRule(rule, out, intern);
      break;
    }
    case 'prefix':
      header = OP_PREFIX | (fields << 4);
      out.push(0, intern.term(prefixKey(node.prefix)));
      break;
    case 'community':
      header = OP_META;
      out.push(0, intern.term(communityKey(node.name)));
      break;
    case 'author':
      header = OP_META;
      out.push(0, intern.term(authorKey(node.name)));
      break;
    case 'signal':
      header = OP_META;
      out.push(0, intern.term(signalKey(node.signal, node.value)));
      break;
    case 'site':
      header = OP_SITES;
      out.push(0, SOURCE_BITS[node.source]);
      break;
    case 'title':
      emitProgram(node.child, out, intern, FIELD_TITLE);
      return;
    case 'not':
      header = OP_NOT;
      out.push(0);
      emitProgram(node.child, out, intern, fields);
      break;
    case 'and':
    case 'or':
      header = node.type === 'and' ? OP_AND : OP_OR;
      out.push(0);
      for (const child of node.children) emitProgram(child, out, intern, fields);
      break;
  }
  out[at] = header | ((out.length - at) << SIZE_SHIFT);
}

/** A program that checks the item's source against `sources` (a SOURCE_BITS mask), then `node`. */
export function emitRestricted(
  node: QueryNode,
  sources: number,
  out: number[],
  intern: Interner,
): void {
  const at = out.length;
  out.push(0, OP_SITES | (2 << SIZE_SHIFT), sources);
  emitProgram(node, out, intern);
  out[at] = OP_AND | ((out.length - at) << SIZE_SHIFT);
}

function emitRule(rule: GapRule, out: number[], intern: Interner): void {
  out.push(
    rule.exact ? 1 : 0,
    rule.head === '' ? -1 : intern.gap(rule.head),
    rule.tail === '' ? -1 : intern.gap(rule.tail),
  );
}

/** Calls back with every vocabulary reference a program holds, to release them. */
export function forEachReference(
  code: Int32Array,
  pc: number,
  onTerm: (id: number) => void,
  onGap: (id: number) => void,
): void {
  const header = code[pc]!;
  const end = pc + nodeSize(header);
  switch (header & 15) {
    case OP_TERM: {
      const n = termWords(header);
      for (let i = 0; i < n; i++) onTerm(code[pc + 1 + i]!);
      for (let rule = pc + 1 + n; rule < end; rule += 3) {
        if (code[rule + 1]! >= 0) onGap(code[rule + 1]!);
        if (code[rule + 2]! >= 0) onGap(code[rule + 2]!);
      }
      return;
    }
    case OP_PREFIX:
    case OP_META:
      onTerm(code[pc + 1]!);
      return;
    case OP_SITES:
      return;
    default:
      for (let child = pc + 1; child < end; child += nodeSize(code[child]!)) {
        forEachReference(code, child, onTerm, onGap);
      }
  }
}
