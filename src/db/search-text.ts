import { type SQL, sql } from 'drizzle-orm';

/**
 * The text PostgreSQL's full-text search sees (docs/decisions/0013-…): lower-case ASCII letters
 * and digits, with the accented Latin letters folded as the matcher folds them and everything
 * else a space. Matching the matcher's words this closely makes the index a safe prefilter:
 * every item the matcher would match holds the folded words of the query's anchors. The SQL
 * function `earshot_search_text` (migration 0006) and `foldSearchText` below must stay the same;
 * a test compares them.
 */
export const FOLD_FROM =
  'ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐőŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽžØøŁłĐđ';
export const FOLD_TO =
  'aaaaaaceeeeiiiinooooouuuuyaaaaaaceeeeiiiinooooouuuuyyaaaaaaccccccccddeeeeeeeeeegggggggghhiiiiiiiiijjkkllllllnnnnnnoooooorrrrrrssssssssttttuuuuuuuuuuuuwwyyyzzzzzzoolldd';

const FOLD = new Map<string, string>();
for (let i = 0; i < FOLD_FROM.length; i++) FOLD.set(FOLD_FROM[i] as string, FOLD_TO[i] as string);
const LIGATURES: Readonly<Record<string, string>> = { ß: 'ss', æ: 'ae', Æ: 'ae', œ: 'oe', Œ: 'oe' };

/** The JavaScript twin of the SQL function `earshot_search_text`. */
export function foldSearchText(text: string): string {
  // Most text is plain ASCII: lower case and spaces, no per-character walk.
  if (!NON_ASCII.test(text)) return text.toLowerCase().replace(NOT_SEARCHABLE, ' ');
  let out = '';
  for (const char of text) {
    const lower = char >= 'A' && char <= 'Z' ? char.toLowerCase() : char;
    out += LIGATURES[lower] ?? FOLD.get(lower) ?? lower;
  }
  return out.replace(NOT_SEARCHABLE, ' ');
}

const NON_ASCII = /[\u0080-\uffff]/;
const NOT_SEARCHABLE = /[^0-9a-z]+/g;

/**
 * A search document: the distinct folded words of its parts (missing ones skipped), written as a
 * `tsvector` literal without positions (nothing searches phrases). PostgreSQL reads this literal
 * about ten times faster than it runs `to_tsvector` over the same words, and it keeps each word
 * whole, as the matcher does, where `to_tsvector`'s parser would split a few (`1e10x`). Queries
 * name their lexemes the same way (`searchQueryTerm`). Words too long for a lexeme are left out.
 */
export function searchDocumentLiteral(...texts: readonly (string | null | undefined)[]): string {
  const words = new Set(foldSearchText(texts.filter((text) => text).join(' ')).split(' '));
  let literal = '';
  for (const word of words) {
    if (word === '' || word.length > MAX_LEXEME_LENGTH) continue;
    literal += literal === '' ? `'${word}'` : ` '${word}'`;
  }
  return literal;
}

// PostgreSQL's limit on a lexeme, in bytes; a folded word is ASCII, one byte a character.
const MAX_LEXEME_LENGTH = 2047;

/**
 * One operand of a `tsquery` literal: a lexeme of `searchLexemes`, quoted, and `:*` when it may be
 * the start of a longer word. Cast the whole query with `::tsquery`, never `to_tsquery`, so it is
 * not parsed again.
 */
export function searchQueryTerm(lexeme: string, prefix = false): string {
  return prefix ? `'${lexeme}':*` : `'${lexeme}'`;
}

/** The `tsvector` stored with an item or a match, for an insert through the query builder. */
export function searchDocument(...texts: readonly (string | null | undefined)[]): SQL {
  return sql`${searchDocumentLiteral(...texts)}::tsvector`;
}

/** The lexemes full-text search finds for `word`: its folded runs of ASCII letters and digits. */
export function searchLexemes(text: string): string[] {
  return foldSearchText(text)
    .split(' ')
    .filter((part) => part !== '');
}

/** True when folding keeps every character of `word` (it holds no other script's letters). */
export function isFoldable(word: string): boolean {
  return /^[0-9a-z]*$/.test(
    [...word]
      .map((char) => LIGATURES[char] ?? FOLD.get(char) ?? char.toLowerCase())
      .join('')
      .replace(/[^\p{L}\p{N}]/gu, ''),
  );
}

/**
 * The SQL twin of `searchDocument` over an item's columns (title, body, URL), for migrations and
 * for benchmarks that write rows with SQL.
 */
export const itemSearchDocumentSql = searchDocumentSql(
  `coalesce(title, '') || ' ' || body || ' ' || coalesce(url, '')`,
);

/** The same over a match's columns (title, snippet, author, community). */
export const matchSearchDocumentSql = searchDocumentSql(
  `coalesce(title, '') || ' ' || snippet || ' ' || coalesce(author, '') || ' ' || coalesce(community, '')`,
);

/** `searchDocumentLiteral` in SQL, over a text expression. */
export function searchDocumentSql(text: string): string {
  return `array_to_tsvector(array(select distinct word from regexp_split_to_table(earshot_search_text(${text}), ' ') as word where word <> '' and length(word) <= ${MAX_LEXEME_LENGTH}))`;
}
