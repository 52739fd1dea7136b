import type { QueryNode, Sequence } from './query-ast.ts';

/**
 * The canonical text of a query: normalised words, single spaces, `OR` in capitals, brackets
 * only where precedence needs them, `subreddit:` for `r/`. `parseQuery(formatQuery(q))` gives
 * back `q`.
 */
export function formatQuery(node: QueryNode): string {
  switch (node.type) {
    case 'term': {
      const text = formatSequence(node.sequence);
      return node.quoted ? `"${text}"` : text;
    }
    case 'prefix':
      return `${node.prefix}*`;
    case 'and':
      return node.children.map((child) => wrapIf(child, child.type === 'and')).join(' ');
    case 'or':
      return node.children
        .map((child) => wrapIf(child, child.type === 'and' || child.type === 'or'))
        .join(' OR ');
    case 'not':
      return `-${wrapIf(node.child, isCompound(node.child))}`;
    case 'title':
      return `title:${wrapIf(node.child, isCompound(node.child))}`;
    case 'site':
      return `site:${node.source}`;
    case 'community':
      if (node.repo) return `repo:${node.name}`;
      return node.feed ? `feed:"${node.name}"` : `subreddit:${node.name}`;
    case 'author':
      return `author:${node.name}`;
    case 'signal':
      return `${node.signal}:${node.value}`;
  }
}

function isCompound(node: QueryNode): boolean {
  return node.type === 'and' || node.type === 'or' || node.type === 'not';
}

function wrapIf(node: QueryNode, wrap: boolean): string {
  const text = formatQuery(node);
  return wrap ? `(${text})` : text;
}

/** Words joined with their gap rules: exact gaps glued, the others as a space. */
export function formatSequence(sequence: Sequence): string {
  const { words, gaps } = sequence;
  if (gaps === null) return words.join(' ');
  let text = gaps[0]?.tail ?? '';
  for (let i = 0; i < words.length; i++) {
    if (i > 0) {
      const rule = gaps[i]!;
      text += rule.exact ? rule.head : `${rule.head} ${rule.tail}`;
    }
    text += words[i];
  }
  return text + (gaps[words.length]?.head ?? '');
}
