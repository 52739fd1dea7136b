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
  let out = '';
  for (const char of text) {
    const lower = char >= 'A' && char <= 'Z' ? char.toLowerCase() : char;
    out += LIGATURES[lower] ?? FOLD.get(lower) ?? lower;
  }
  return out.replace(/[^0-9a-z]+/g, ' ');
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
 * The SQL of `earshot_search_text` (created in migration 0006). No lower(): its result depends on
 * the server's locale, translate's does not.
 */
export const SEARCH_TEXT_FUNCTION_SQL = `CREATE OR REPLACE FUNCTION earshot_search_text(input text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN regexp_replace(
    replace(replace(replace(replace(replace(translate(input, '${FOLD_FROM}ABCDEFGHIJKLMNOPQRSTUVWXYZ', '${FOLD_TO}abcdefghijklmnopqrstuvwxyz'), 'ß', 'ss'), 'æ', 'ae'), 'Æ', 'ae'), 'œ', 'oe'), 'Œ', 'oe'),
    '[^0-9a-z]+', ' ', 'g');`;

/** The full-text document of an item: what the matcher reads (title, body, URL), folded. */
export const itemSearchVector: SQL = sql.raw(
  `to_tsvector('simple'::regconfig, earshot_search_text(coalesce(title, '') || ' ' || body || ' ' || coalesce(url, '')))`,
);
