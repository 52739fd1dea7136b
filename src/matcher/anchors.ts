import type { QueryNode } from './query-ast.ts';
import { STOP_WORDS } from './stop-words.ts';

/** Something an item must contain for a query to have a chance: the presearcher's key. */
export type Anchor =
  | { readonly kind: 'word'; readonly word: string }
  | { readonly kind: 'prefix'; readonly prefix: string }
  | { readonly kind: 'community'; readonly name: string }
  | { readonly kind: 'author'; readonly name: string };

/** A set of anchors of which every matching item holds at least one, and its estimated cost. */
export interface AnchorSet {
  readonly cost: number;
  readonly anchors: readonly Anchor[];
}

export interface AnchorOptions {
  /** Treat a lone stop word as no anchor at all (the "too broad" check). */
  readonly ignoreStopWords?: boolean;
}

// Item frequency is unknown when a monitor is added, so cost stands in for it: stop words are
// everywhere, short words are common, long words and names are rare (Luwak's default weighting).
export function wordCost(word: string): number {
  if (STOP_WORDS.has(word)) return 1000;
  return 10 + Math.max(0, 12 - word.length);
}

export function prefixCost(prefix: string): number {
  if (prefix.length < 3) return 5000 - prefix.length;
  return wordCost(prefix) + 8;
}

const META_COST = 16;

/**
 * Chooses the anchors of a query: for AND the cheapest child, for OR the union of every branch.
 * Null when some way of matching needs no positive term (`-hiring`, `site:reddit`, `a OR -b`).
 */
export function chooseAnchors(node: QueryNode, options: AnchorOptions = {}): AnchorSet | null {
  switch (node.type) {
    case 'term': {
      const { words } = node.sequence;
      if (options.ignoreStopWords === true && words.length === 1 && STOP_WORDS.has(words[0]!)) {
        return null;
      }
      let best = words[0]!;
      for (const word of words) if (wordCost(word) < wordCost(best)) best = word;
      return { cost: wordCost(best), anchors: [{ kind: 'word', word: best }] };
    }
    case 'prefix':
      return { cost: prefixCost(node.prefix), anchors: [{ kind: 'prefix', prefix: node.prefix }] };
    case 'community':
      return { cost: META_COST, anchors: [{ kind: 'community', name: node.name }] };
    case 'author':
      return { cost: META_COST, anchors: [{ kind: 'author', name: node.name }] };
    case 'title':
      return chooseAnchors(node.child, options);
    case 'not':
    case 'site':
      return null;
    case 'and': {
      let best: AnchorSet | null = null;
      for (const child of node.children) {
        const set = chooseAnchors(child, options);
        if (set !== null && (best === null || set.cost < best.cost)) best = set;
      }
      return best;
    }
    case 'or': {
      let cost = 0;
      const anchors: Anchor[] = [];
      for (const child of node.children) {
        const set = chooseAnchors(child, options);
        if (set === null) return null;
        cost += set.cost;
        anchors.push(...set.anchors);
      }
      return { cost, anchors };
    }
  }
}

function anchorCost(anchor: Anchor): number {
  if (anchor.kind === 'word') return wordCost(anchor.word);
  if (anchor.kind === 'prefix') return prefixCost(anchor.prefix);
  return META_COST;
}

/** Terms every matching item holds (the words of the query's required phrases, and so on). */
export function requiredAnchors(node: QueryNode): Anchor[] {
  switch (node.type) {
    case 'term':
      return node.sequence.words.map((word) => ({ kind: 'word', word }));
    case 'prefix':
      return [{ kind: 'prefix', prefix: node.prefix }];
    case 'community':
      return [{ kind: 'community', name: node.name }];
    case 'author':
      return [{ kind: 'author', name: node.name }];
    case 'title':
      return requiredAnchors(node.child);
    case 'and':
      return node.children.flatMap(requiredAnchors);
    default:
      return [];
  }
}

/**
 * A second required term to check before verifying a query found through `anchor`: the
 * cheapest (rarest-looking) required term other than the anchor, or null.
 */
export function chooseGuard(node: QueryNode, anchor: Anchor): Anchor | null {
  let best: Anchor | null = null;
  for (const candidate of requiredAnchors(node)) {
    if (sameAnchor(candidate, anchor)) continue;
    if (best === null || anchorCost(candidate) < anchorCost(best)) best = candidate;
  }
  return best;
}

function sameAnchor(a: Anchor, b: Anchor): boolean {
  return describeAnchor(a) === describeAnchor(b);
}

function describeAnchor(anchor: Anchor): string {
  switch (anchor.kind) {
    case 'word':
      return `w${anchor.word}`;
    case 'prefix':
      return `p${anchor.prefix}`;
    default:
      return `${anchor.kind}${anchor.name}`;
  }
}
