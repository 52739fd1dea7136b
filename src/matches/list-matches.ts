import type { Database } from '../db/client.ts';
import { queryRows, type SqlValue } from '../db/prepared.ts';
import { searchLexemes, searchQueryTerm } from '../db/search-text.ts';
import type { JsonText } from '../platform/json-text.ts';
import type { ListMatchesQuery, MatchPage } from '../shared/match.ts';
import { type SignalFilter, splitSignalFilters } from '../shared/signals.ts';
import { HELD_BACK_SQL } from './relevance-held.ts';
import {
  STORED_MATCH_COLUMNS,
  type StoredMatchRow,
  storedMatch,
  storedMatchJson,
} from './stored-match.ts';

/**
 * The order of `sort=relevance`: the relevance in millionths, unscored matches last; with the id
 * it is the keyset of that order (`<key>-<id>` cursors).
 */
const RELEVANCE_KEY = 'coalesce(round(relevance * 1000000)::int, -1)';

/**
 * One page of the user's matches, newest first, with keyset pagination on the id: the cursor
 * is the last id of the page before, so matches that arrive meanwhile (higher ids) neither
 * shift nor repeat the older pages. `q` is full-text search over the folded title, snippet and
 * names (every word must appear; the last may be the start of a word, as people type); in it,
 * `intent:x`, `sentiment:x` and `lang:x` (and `-intent:x` …) filter on the match's signals, as
 * the `intent`, `sentiment` and `lang` parameters do.
 * Another user's monitor id simply finds nothing.
 *
 * The feed is the most read thing in the product, so a page costs as little as it can: each
 * match's JSON was written when it was stored (`feed_json`), and the page reads those with each
 * one's read flag. The feed without a filter is a statement the database plans once.
 */
export async function listMatches(
  ctx: { db: Database },
  input: { userId: string; query: ListMatchesQuery },
): Promise<MatchPage> {
  const page = await readMatchPage(ctx, input);
  return { items: page.rows.map(storedMatch), nextCursor: page.nextCursor };
}

/**
 * The same page as `listMatches`, as the JSON text of a `MatchPage`: each match's stored JSON
 * closed with its live fields (`storedMatchJson`), never parsed and written again. The HTTP feed
 * answers with it; parsing fifty stored matches and writing them again was a tenth of what a
 * page cost the server (docs/PERFORMANCE.md, "Matches API").
 */
export async function listMatchesJson(
  ctx: { db: Database },
  input: { userId: string; query: ListMatchesQuery },
): Promise<JsonText<MatchPage>> {
  const page = await readMatchPage(ctx, input);
  const items = page.rows.map(storedMatchJson).join(',');
  return `{"items":[${items}],"nextCursor":${JSON.stringify(page.nextCursor)}}` as JsonText<MatchPage>;
}

/** A stored match as a page reads it: with its id, and its key in the relevance order. */
type PageRow = StoredMatchRow & { id: string; key?: number };

/** The stored rows of one page of the feed (at most `limit`), and the cursor of the next. */
async function readMatchPage(
  ctx: { db: Database },
  input: { userId: string; query: ListMatchesQuery },
): Promise<{ rows: PageRow[]; nextCursor: string | null }> {
  const { monitorId, source, unread, cursor, limit, minRelevance, lowRelevance, sort } =
    input.query;
  const values: SqlValue[] = [input.userId];
  const conditions = ['user_id = $1'];
  const bind = (condition: (placeholder: string) => string, value: SqlValue) => {
    values.push(value);
    conditions.push(condition(`$${values.length}`));
  };
  if (monitorId) bind((p) => `monitor_id = ${p}`, monitorId);
  if (source) bind((p) => `source = ${p}`, source);
  if (unread === 'true') conditions.push('read_at is null');
  if (unread === 'false') conditions.push('read_at is not null');
  if (minRelevance !== undefined) bind((p) => `relevance >= ${p}::real`, minRelevance);
  if (lowRelevance) conditions.push(`${lowRelevance === 'true' ? '' : 'not '}${HELD_BACK_SQL}`);
  const byRelevance = sort === 'relevance';
  if (cursor) {
    const [key, id] = cursor.includes('-') ? cursor.split('-') : [null, cursor];
    if (byRelevance && key !== null) {
      values.push(key);
      bind((p) => `(${RELEVANCE_KEY}, id) < ($${values.length - 1}::int, ${p}::bigint)`, id ?? '');
    } else bind((p) => `id < ${p}`, id ?? '');
  }
  const { filters, words: q } = splitSignalFilters(input.query.q ?? '');
  const { intent, sentiment, lang } = input.query;
  if (intent) filters.push({ field: 'intent', value: intent, negated: false });
  if (sentiment) filters.push({ field: 'sentiment', value: sentiment, negated: false });
  if (lang) filters.push({ field: 'lang', value: lang, negated: false });
  for (const filter of filters) bind((p) => signalCondition(filter, p), filter.value);
  if (q) {
    const lexemes = searchLexemes(q);
    // Nothing searchable (only punctuation or another script): nothing can be found.
    if (lexemes.length === 0) return { rows: [], nextCursor: null };
    const last = lexemes.length - 1;
    const terms = lexemes.map((lexeme, i) => searchQueryTerm(lexeme, i === last));
    bind((p) => `search @@ ${p}::tsquery`, terms.join(' & '));
  }
  values.push(limit + 1);
  const text = `select ${STORED_MATCH_COLUMNS}, id::text as id${byRelevance ? `, ${RELEVANCE_KEY} as key` : ''}
    from matches
    where ${conditions.join(' and ')}
    -- NULLS LAST as the indexes are declared (\`.desc()\`): with another null order PostgreSQL
    -- cannot read them in order and walks the primary key instead, past other users' rows.
    order by ${byRelevance ? `${RELEVANCE_KEY} desc, ` : ''}matches.id desc nulls last
    limit $${values.length}`;
  // The feed as it opens and scrolls (unread or not) is planned once. A filter's best plan
  // depends on its value (a search's words, how much of the feed a monitor or a site holds: read
  // the newest matches and skip, or read that monitor's index), so those are planned each time; a
  // plan made once for any value read 10 to 30 ms where this one reads 2.
  const name =
    monitorId ||
    source ||
    q ||
    filters.length > 0 ||
    minRelevance !== undefined ||
    lowRelevance ||
    byRelevance
      ? undefined
      : [
          'matches_page',
          unread === 'true' && 'unread',
          unread === 'false' && 'read',
          cursor && 'after',
        ]
          .filter(Boolean)
          .join('_');
  const rows = await queryRows<PageRow>(ctx.db, name ? { name, text } : { text }, values);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > limit && last ? (byRelevance ? `${last.key ?? 0}-${last.id}` : last.id) : null;
  return { rows: page, nextCursor };
}

/** The SQL condition of a signal filter on `matches`, its value at `placeholder`. */
function signalCondition(filter: SignalFilter, placeholder: string): string {
  const holds =
    filter.field === 'intent'
      ? `intents @> array[${placeholder}::text]`
      : `${filter.field === 'lang' ? 'language' : 'sentiment'} = ${placeholder}`;
  // An unknown sentiment or language (null) is not the one excluded.
  return filter.negated ? `not coalesce(${holds}, false)` : holds;
}
