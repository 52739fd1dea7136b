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

// Above every word and every prefix of three letters or more: a community or an author anchors or
// guards a query only when it has no such term (`r/rust`, `subreddit:rust -meta`), so the matcher
// reads an item's names only for the candidates that ask (see MonitorIndex.markNames).
const META_COST = 30;

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
      let bestCost = wordCost(best);
      for (let i = 1; i < words.length; i++) {
        const cost = wordCost(words[i]!);
        if (cost < bestCost) {
          best = words[i]!;
          bestCost = cost;
        }
      }
      return { cost: bestCost, anchors: [{ kind: 'word', word: best }] };
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
    // Signals are common to many items (`lang:en` to most): they never anchor a query.
    case 'signal':
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

/** The cheapest required term of a query other than `anchor` (see `chooseGuard`). */
interface GuardSearch {
  readonly anchor: Anchor;
  best: Anchor | null;
  cost: number;
}

// Walks the terms every matching item holds (the words of the query's required phrases and its
// prefixes, in query order), keeping the first of the cheapest; never a community or an author,
// which the matcher marks only when verification asks (MonitorIndex.markNames). An Anchor
// object is made only for a new best, so a bulk load allocates next to nothing here.
function searchGuard(node: QueryNode, search: GuardSearch): void {
  const { anchor } = search;
  switch (node.type) {
    case 'term':
      for (const word of node.sequence.words) {
        if (anchor.kind === 'word' && anchor.word === word) continue;
        const cost = wordCost(word);
        if (search.best === null || cost < search.cost) {
          search.best = { kind: 'word', word };
          search.cost = cost;
        }
      }
      return;
    case 'prefix': {
      if (anchor.kind === 'prefix' && anchor.prefix === node.prefix) return;
      const cost = prefixCost(node.prefix);
      if (search.best === null || cost < search.cost) {
        search.best = { kind: 'prefix', prefix: node.prefix };
        search.cost = cost;
      }
      return;
    }
    case 'title':
      searchGuard(node.child, search);
      return;
    case 'and':
      for (const child of node.children) searchGuard(child, search);
      return;
    default:
      return;
  }
}

/**
 * A second required term to check before verifying a query found through `anchor`: the
 * cheapest (rarest-looking) required term other than the anchor, or null.
 */
export function chooseGuard(node: QueryNode, anchor: Anchor): Anchor | null {
  const search: GuardSearch = { anchor, best: null, cost: 0 };
  searchGuard(node, search);
  return search.best;
}
