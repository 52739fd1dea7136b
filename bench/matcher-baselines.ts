// The two baselines the matcher is compared with. Both read the same queries through the same
// parser and apply the same boolean logic; only the search for words differs:
//   regexp         one RegExp per monitor over the folded text, tried on every item
//   aho-corasick   one automaton (modern-ahocorasick) over every term of every monitor, then a
//                  whole-word filter and the boolean logic for the monitors of the terms found
// Their text model is simpler than the engine's (no field separation, no gap rules), which only
// flatters them.

import AhoCorasick from 'modern-ahocorasick';
import type { MatchableItem } from '../src/matcher/monitor-index.ts';
import type { QueryNode } from '../src/matcher/query-ast.ts';
import { holdsFilter, parseQuery } from '../src/matcher/query-parser.ts';
import type { Monitor } from './matcher-workload.ts';

export interface Baseline {
  /** The ids of the monitors matching `item`. */
  match(item: MatchableItem): string[];
}

/** Folded text with every run of non-word characters turned into one space, padded. */
function foldText(item: MatchableItem): string {
  const text = `${item.title ?? ''} ${item.body ?? ''} ${item.url ?? ''}`;
  const folded = text.normalize('NFKC').toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  return ` ${folded.replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
}

function termText(node: QueryNode): string | null {
  if (node.type === 'term') return node.sequence.words.join(' ');
  if (node.type === 'prefix') return node.prefix;
  return null;
}

function evaluate(
  node: QueryNode,
  item: MatchableItem,
  has: (node: QueryNode) => boolean,
): boolean {
  switch (node.type) {
    case 'term':
    case 'prefix':
      return has(node);
    case 'and':
      return node.children.every((child) => evaluate(child, item, has));
    case 'or':
      return node.children.some((child) => evaluate(child, item, has));
    case 'not':
      return !evaluate(node.child, item, has);
    case 'title':
      return evaluate(node.child, item, has);
    case 'site':
      return item.source === node.source;
    case 'community':
      return (item.community ?? '').toLowerCase() === node.name;
    case 'author':
      return (item.author ?? '').toLowerCase() === node.name;
    case 'signal':
      if (node.signal === 'intent') return (item.intents ?? []).includes(node.value);
      return (node.signal === 'sentiment' ? item.sentiment : item.language) === node.value;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** The regular expression of a query: lookaheads for AND, alternation for OR. */
function toRegExpSource(node: QueryNode): string {
  switch (node.type) {
    case 'term':
      return `(?=[^]*? ${escapeRegExp(node.sequence.words.join(' '))} )`;
    case 'prefix':
      return `(?=[^]*? ${escapeRegExp(node.prefix)})`;
    case 'and':
      return node.children.map(toRegExpSource).join('');
    case 'or':
      return `(?:${node.children.map(toRegExpSource).join('|')})`;
    case 'not':
      return `(?!${toRegExpSource(node.child)})`;
    case 'title':
      return toRegExpSource(node.child);
    default:
      return '';
  }
}

export function createRegExpBaseline(monitors: readonly Monitor[]): Baseline {
  const compiled = monitors.map((monitor) => {
    const ast = parseQuery(monitor.query);
    return {
      id: monitor.id,
      ast,
      filtered: holdsFilter(ast),
      regexp: new RegExp(`^${toRegExpSource(ast)}`, 'u'),
    };
  });
  return {
    match(item) {
      const text = foldText(item);
      const found: string[] = [];
      for (const monitor of compiled) {
        if (!monitor.regexp.test(text)) continue;
        if (monitor.filtered && !evaluate(monitor.ast, item, () => true)) continue;
        found.push(monitor.id);
      }
      return found;
    },
  };
}

export function createAhoCorasickBaseline(monitors: readonly Monitor[]): Baseline {
  const patterns = new Map<string, number>();
  const monitorsOfPattern: number[][] = [];
  const asts = monitors.map((monitor) => parseQuery(monitor.query));
  const visit = (node: QueryNode, monitor: number): void => {
    const text = termText(node);
    if (text !== null) {
      let index = patterns.get(text);
      if (index === undefined) {
        index = patterns.size;
        patterns.set(text, index);
        monitorsOfPattern.push([]);
      }
      monitorsOfPattern[index]!.push(monitor);
      return;
    }
    if (node.type === 'and' || node.type === 'or')
      for (const child of node.children) visit(child, monitor);
    if (node.type === 'not' || node.type === 'title') visit(node.child, monitor);
  };
  asts.forEach((ast, monitor) => {
    visit(ast, monitor);
  });
  const prefixes = new Set(asts.flatMap((ast) => collectPrefixes(ast)));
  const automaton = new AhoCorasick([...patterns.keys()], { boundary: 'none' });
  return {
    match(item) {
      const text = foldText(item);
      const found = new Set<string>();
      for (const hit of automaton.search(text)) {
        // Whole words only: the automaton also reports "rust" inside "trust".
        if (text[hit.start - 1] !== ' ') continue;
        if (text[hit.end] !== ' ' && !prefixes.has(hit.pattern)) continue;
        found.add(hit.pattern);
      }
      const candidates = new Set<number>();
      for (const pattern of found)
        for (const monitor of monitorsOfPattern[patterns.get(pattern)!]!) candidates.add(monitor);
      const result: string[] = [];
      for (const monitor of candidates) {
        const has = (node: QueryNode) => found.has(termText(node) ?? '');
        if (evaluate(asts[monitor]!, item, has)) result.push(monitors[monitor]!.id);
      }
      return result;
    },
  };
}

function collectPrefixes(node: QueryNode): string[] {
  if (node.type === 'prefix') return [node.prefix];
  if (node.type === 'and' || node.type === 'or') return node.children.flatMap(collectPrefixes);
  if (node.type === 'not' || node.type === 'title') return collectPrefixes(node.child);
  return [];
}
