/** What a piece of a monitor query is, for syntax highlighting. */
export type QueryTokenKind =
  | 'word'
  | 'phrase'
  | 'operator'
  | 'negation'
  | 'field'
  | 'prefix'
  | 'paren'
  | 'space';

export type QueryToken = { kind: QueryTokenKind; text: string };

const OPERATORS = new Set(['OR', 'AND', 'NOT']);

/**
 * Splits a query into tokens for highlighting only: the server's parser decides what is valid.
 * Concatenating the tokens' text gives the query back unchanged, so nothing typed is ever lost.
 */
export function tokenizeQuery(query: string): QueryToken[] {
  const tokens: QueryToken[] = [];
  let i = 0;
  while (i < query.length) {
    const char = query[i] as string;
    if (/\s/.test(char)) {
      const end = scan(query, i, (c) => /\s/.test(c));
      tokens.push({ kind: 'space', text: query.slice(i, end) });
      i = end;
    } else if (char === '(' || char === ')') {
      tokens.push({ kind: 'paren', text: char });
      i += 1;
    } else if (char === '"' || char === '\u201c' || char === '\u201e') {
      const close = query.slice(i + 1).search(/["\u201c\u201d]/);
      const end = close < 0 ? query.length : i + 2 + close;
      tokens.push({ kind: 'phrase', text: query.slice(i, end) });
      i = end;
    } else if (char === '-' && i + 1 < query.length && !/\s/.test(query[i + 1] as string)) {
      tokens.push({ kind: 'negation', text: '-' });
      i += 1;
    } else {
      const end = scan(query, i, (c) => !/[\s()"\u201c\u201d\u201e]/.test(c));
      const text = query.slice(i, end);
      const field = /^(title|site|subreddit|author|feed|repo):/i.exec(text);
      const reddit = /^\/?r\/\S+/i.test(text);
      if (OPERATORS.has(text)) tokens.push({ kind: 'operator', text });
      else if (field) {
        tokens.push({ kind: 'field', text: field[0] });
        if (text.length > field[0].length) {
          tokens.push({ kind: 'word', text: text.slice(field[0].length) });
        }
      } else if (reddit) tokens.push({ kind: 'field', text });
      else if (text.endsWith('*')) tokens.push({ kind: 'prefix', text });
      else tokens.push({ kind: 'word', text });
      i = end;
    }
  }
  return tokens;
}

function scan(text: string, from: number, keep: (char: string) => boolean): number {
  let i = from;
  while (i < text.length && keep(text[i] as string)) i++;
  return i === from ? from + 1 : i;
}
