import { SOURCE_DESCRIPTORS } from '../shared/sources.ts';
import { type QueryNode, SOURCES, type Source } from './query-ast.ts';

/**
 * The sources whose items have a community (a subreddit, a DEV or Stack Overflow tag): `subreddit:` and `r/` match
 * only there; `feed:"…"` names a feed's, on the feeds site, and `repo:owner/name` a GitHub
 * repository's.
 */
const COMMUNITY_SOURCES: readonly Source[] = SOURCE_DESCRIPTORS.filter(
  (descriptor) => descriptor.communityPrefix !== '',
).map((descriptor) => descriptor.name);

/**
 * The sources a query can match items from, in the order of SOURCES: `site:hackernews` only
 * Hacker News, `r/rust` only Reddit, `-site:reddit` every other site, `site:reddit OR
 * site:lobsters` both. It reads only the query's site and community conditions (what words
 * an item holds never rules a site out), so it may name a site the query never matches in
 * practice, never leave out one it can.
 */
export function querySources(query: QueryNode): Source[] {
  const can = canMatch(query);
  return SOURCES.filter((source) => can.has(source));
}

/** The sources from which some item may satisfy `node`. */
function canMatch(node: QueryNode): Set<Source> {
  switch (node.type) {
    case 'site':
      return new Set([node.source]);
    case 'community':
      if (node.repo) return new Set(['github']);
      return new Set(node.feed ? ['feeds'] : COMMUNITY_SOURCES);
    case 'and':
      return intersect(node.children.map(canMatch));
    case 'or':
      return unite(node.children.map(canMatch));
    case 'not':
      return without(mustMatch(node.child));
    default:
      return new Set(SOURCES);
  }
}

/** The sources every item of which satisfies `node` (only site conditions can promise that). */
function mustMatch(node: QueryNode): Set<Source> {
  switch (node.type) {
    case 'site':
      return new Set([node.source]);
    case 'and':
      return intersect(node.children.map(mustMatch));
    case 'or':
      return unite(node.children.map(mustMatch));
    case 'not':
      return without(canMatch(node.child));
    default:
      return new Set();
  }
}

function intersect(sets: Set<Source>[]): Set<Source> {
  return new Set(SOURCES.filter((source) => sets.every((set) => set.has(source))));
}

function unite(sets: Set<Source>[]): Set<Source> {
  return new Set(SOURCES.filter((source) => sets.some((set) => set.has(source))));
}

function without(set: Set<Source>): Set<Source> {
  return new Set(SOURCES.filter((source) => !set.has(source)));
}

/**
 * The GitHub repositories (`owner/name`, lower case) a query names with `repo:`, outside any
 * `-`: those whose issues and comments the GitHub source reads for it (decision 0042).
 */
export function queryRepositories(query: QueryNode): string[] {
  const names = new Set<string>();
  const visit = (node: QueryNode): void => {
    if (node.type === 'community' && node.repo) names.add(node.name);
    else if (node.type === 'and' || node.type === 'or') node.children.forEach(visit);
    else if (node.type === 'title') visit(node.child);
  };
  visit(query);
  return [...names];
}
