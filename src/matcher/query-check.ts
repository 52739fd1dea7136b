import { chooseAnchors } from './anchors.ts';
import type { QueryNode } from './query-ast.ts';

export type BreadthProblemCode =
  | 'lone-star'
  | 'short-prefix'
  | 'no-positive-term'
  | 'only-stop-words';

/** Why a query would match almost everything, in a sentence for the user. */
export interface BreadthProblem {
  readonly code: BreadthProblemCode;
  readonly message: string;
}

/**
 * The "too broad" check of docs/product.md, "Monitors": an empty list means the query is specific
 * enough. The caller decides whether to refuse or warn; the index accepts broad queries all the
 * same.
 */
export function checkQueryBreadth(query: QueryNode): BreadthProblem[] {
  const problems: BreadthProblem[] = [];
  for (const prefix of positivePrefixes(query)) {
    if (prefix === '') {
      problems.push({ code: 'lone-star', message: 'A * on its own matches every item.' });
    } else if (prefix.length < 3) {
      problems.push({
        code: 'short-prefix',
        message: `\u201c${prefix}*\u201d is too short: put at least 3 letters before the *.`,
      });
    }
  }
  if (chooseAnchors(query) === null) {
    problems.push({
      code: 'no-positive-term',
      message:
        'Nothing here must appear in the item, so it would match almost everything: add a word to look for.',
    });
  } else if (chooseAnchors(query, { ignoreStopWords: true }) === null) {
    problems.push({
      code: 'only-stop-words',
      message:
        'Words like \u201cthe\u201d or \u201cand\u201d are in almost every item: add a more specific word.',
    });
  }
  return problems;
}

function positivePrefixes(node: QueryNode): string[] {
  switch (node.type) {
    case 'prefix':
      return [node.prefix];
    case 'and':
    case 'or':
      return node.children.flatMap(positivePrefixes);
    case 'title':
      return positivePrefixes(node.child);
    default:
      return [];
  }
}
