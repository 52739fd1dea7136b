import { and, eq, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { rowsOf } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { searchLexemes, searchQueryTerm } from '../../db/search-text.ts';
import type { ListMatchesQuery } from '../../shared/match.ts';

/** A page of matches as its wire JSON (`MatchPage`), ready to send. */
export type MatchPageJson = { readonly json: string };

/**
 * One page of the user's matches, newest first, with keyset pagination on the id: the cursor
 * is the last id of the page before, so matches that arrive meanwhile (higher ids) neither
 * shift nor repeat the older pages. `q` is full-text search over the folded title, snippet and
 * names (every word must appear; the last may be the start of a word, as people type).
 * Another user's monitor id simply finds nothing.
 *
 * The database writes the page's JSON itself (the shape of `toMatch`): the feed is the most read
 * thing in the product, and reading fifty rows into objects only to serialise them again was
 * most of the server's time per request.
 */
export async function listMatches(
  ctx: { db: Database },
  input: { userId: string; query: ListMatchesQuery },
): Promise<MatchPageJson> {
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
    if (lexemes.length === 0) return { json: EMPTY_PAGE };
    const last = lexemes.length - 1;
    const terms = lexemes.map((lexeme, i) => searchQueryTerm(lexeme, i === last));
    conditions.push(sql`${matches.search} @@ ${terms.join(' & ')}::tsquery`);
  }
  const result = await ctx.db.execute(sql`
    select json_build_object(
      'items', coalesce(json_agg(${matchJson} order by page.id desc) filter (where page.n <= ${limit}), '[]'::json),
      'nextCursor', (max(page.id) filter (where page.n = ${limit}))::text
        || case when count(*) > ${limit} then '' end
    )::text as json
    from (
      select ${matches.id}, ${matches.monitorId}, ${matches.source}, ${matches.kind},
        ${matches.title}, ${matches.snippet}, ${matches.highlights}, ${matches.url},
        ${matches.permalink}, ${matches.author}, ${matches.community}, ${matches.itemCreatedAt},
        ${matches.matchedAt}, ${matches.readAt},
        row_number() over (order by ${matches.id} desc nulls last) as n
      from ${matches}
      where ${and(...conditions)}
      -- NULLS LAST as the indexes are declared (\`.desc()\`): with another null order PostgreSQL
      -- cannot read them in order and walks the primary key instead, past other users' rows.
      order by ${matches.id} desc nulls last
      limit ${limit + 1}
    ) as page`);
  const [row] = rowsOf<{ json: string }>(result);
  return { json: row?.json ?? EMPTY_PAGE };
}

const EMPTY_PAGE = '{"items":[],"nextCursor":null}';

// toMatch's shape, in SQL; instants as toISOString writes them (UTC, milliseconds, "Z").
const isoInstant = (column: string) =>
  `to_char(page.${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const matchJson = sql.raw(`json_build_object(
  'id', page.id::text, 'monitorId', page.monitor_id, 'source', page.source, 'kind', page.kind,
  'title', page.title, 'snippet', page.snippet, 'highlights', page.highlights, 'url', page.url,
  'permalink', page.permalink, 'author', page.author, 'community', page.community,
  'itemCreatedAt', ${isoInstant('item_created_at')}, 'matchedAt', ${isoInstant('matched_at')},
  'read', page.read_at is not null)`);
