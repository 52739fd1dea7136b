// A query compiles to a small program of ints, stored in the index's arena. Each node is
// [header, size, ...payload] where size counts the whole node, so AND/OR can skip a child.
//   TERM    [n, word ids × n, (if HAS_GAPS) (exact, head gap id, tail gap id) × (n + 1)]
//   PREFIX  [prefix term id]        META [community or author term id]   SITES [source mask]
//   AND/OR  [children…]             NOT  [child]
// The header holds the op (4 bits), the fields a text node may match in (3 bits) and HAS_GAPS.

import type { GapRule, QueryNode, Source } from './query-ast.ts';

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

export const SOURCE_BITS: Readonly<Record<Source, number>> = {
  hackernews: 1,
  reddit: 2,
  lobsters: 4,
};

/** Vocabulary keys; `\u0001` never occurs in a word, so the namespaces cannot collide. */
export const prefixKey = (prefix: string): string => `\u0001p${prefix}`;
export const communityKey = (name: string): string => `\u0001c${name}`;
export const authorKey = (name: string): string => `\u0001a${name}`;

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
  switch (node.type) {
    case 'term': {
      const { words, gaps } = node.sequence;
      out.push(OP_TERM | (fields << 4) | (gaps === null ? 0 : HAS_GAPS), 0, words.length);
      for (const word of words) out.push(intern.term(word));
      if (gaps !== null) for (const rule of gaps) emitRule(rule, out, intern);
      break;
    }
    case 'prefix':
      out.push(OP_PREFIX | (fields << 4), 3, intern.term(prefixKey(node.prefix)));
      return;
    case 'community':
      out.push(OP_META, 3, intern.term(communityKey(node.name)));
      return;
    case 'author':
      out.push(OP_META, 3, intern.term(authorKey(node.name)));
      return;
    case 'site':
      out.push(OP_SITES, 3, SOURCE_BITS[node.source]);
      return;
    case 'title':
      emitProgram(node.child, out, intern, FIELD_TITLE);
      return;
    case 'not':
      out.push(OP_NOT, 0);
      emitProgram(node.child, out, intern, fields);
      break;
    case 'and':
    case 'or':
      out.push(node.type === 'and' ? OP_AND : OP_OR, 0);
      for (const child of node.children) emitProgram(child, out, intern, fields);
      break;
  }
  out[at + 1] = out.length - at;
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
  const size = code[pc + 1]!;
  switch (header & 15) {
    case OP_TERM: {
      const n = code[pc + 2]!;
      for (let i = 0; i < n; i++) onTerm(code[pc + 3 + i]!);
      for (let i = pc + 3 + n; i < pc + size; i++) {
        if ((i - pc - 3 - n) % 3 !== 0 && code[i]! >= 0) onGap(code[i]!);
      }
      return;
    }
    case OP_PREFIX:
    case OP_META:
      onTerm(code[pc + 2]!);
      return;
    case OP_SITES:
      return;
    default:
      for (let child = pc + 2; child < pc + size; child += code[child + 1]!) {
        forEachReference(code, child, onTerm, onGap);
      }
  }
}
