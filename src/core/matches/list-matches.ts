import { and, eq, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { searchLexemes, searchQueryTerm } from '../../db/search-text.ts';
import type { ListMatchesQuery, MatchPage } from '../../shared/match.ts';
import { matchColumns, toMatch } from './to-match.ts';

/**
 * One page of the user's matches, newest first, with keyset pagination on the id: the cursor
 * is the last id of the page before, so matches that arrive meanwhile (higher ids) neither
 * shift nor repeat the older pages. `q` is full-text search over the folded title, snippet and
 * names (every word must appear; the last may be the start of a word, as people type).
 * Another user's monitor id simply finds nothing.
 */
export async function listMatches(
  ctx: { db: Database },
  input: { userId: string; query: ListMatchesQuery },
): Promise<MatchPage> {
  const { monitorId, source, unread, q, cursor, limit } = input.query;
  const conditions: SQL[] = [eq(matches.userId, input.userId)];
  if (monitorId) conditions.push(eq(matches.monitorId, monitorId));
  if (source) conditions.push(eq(matches.source, source));
  if (unread === 'true') conditions.push(isNull(matches.readAt));
  if (unread === 'false') conditions.push(isNotNull(matches.readAt));
  if (cursor) conditions.push(lt(matches.id, Number(cursor)));
  if (q) {
    const lexemes = searchLexemes(q);
    // Nothing searchable (only punctuation or another script): nothing can be found.
    if (lexemes.length === 0) return { items: [], nextCursor: null };
    const last = lexemes.length - 1;
    const terms = lexemes.map((lexeme, i) => searchQueryTerm(lexeme, i === last));
    conditions.push(sql`${matches.search} @@ ${terms.join(' & ')}::tsquery`);
  }
  const rows = await ctx.db
    .select(matchColumns)
    .from(matches)
    .where(and(...conditions))
    // NULLS LAST as the indexes are declared (`.desc()`): with another null order PostgreSQL
    // cannot read them in order and walks the primary key instead, past other users' rows.
    .orderBy(sql`${matches.id} desc nulls last`)
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    items: page.map(toMatch),
    nextCursor: rows.length > limit && last ? String(last.id) : null,
  };
}
