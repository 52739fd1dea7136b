import { getTableColumns, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { matchFieldSources, matchSchema } from '../shared/match.ts';
import { type DatabaseHandle, rowsOf } from './client.ts';
import { matches } from './schema/matches.ts';

/**
 * The SQL body of `match_feed_json(matches)`, derived from the wire schema's field list
 * (`matchSchema` in src/shared/match.ts): the match as the feed sends it, less its read flag and its live fields, in
 * the schema's key order, the instants as `toISOString` writes them (UTC, milliseconds, "Z").
 * `row_to_json` writes no spaces between keys and values. The trigger `matches_feed_json`
 * (migration 0009) stores its result in `matches.feed_json` on insert.
 */
export function matchFeedJsonBody(): string {
  const columns: Record<string, PgColumn> = getTableColumns(matches);
  const select = Object.entries(matchSchema.shape).flatMap(([key, schema]) => {
    const from = matchFieldSources.get(schema)?.from;
    if (from === 'read' || from === 'live') return [];
    if (from === 'id') return [`m.id::text AS "${key}"`];
    const name = columns[key]?.name;
    if (!name) throw new Error(`The match field "${key}" has no column of that name in matches.`);
    if (from === 'instant') {
      return [
        `to_char(m."${name}" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "${key}"`,
      ];
    }
    return [`m."${name}" AS "${key}"`];
  });
  return `\n  SELECT row_to_json(f)::text FROM (SELECT\n    ${select.join(',\n    ')}\n  ) AS f\n`;
}

/**
 * Installs the derived `match_feed_json` when the database holds another definition (migration
 * 0009's first one, or one from before a field was added), and rewrites every stored match's
 * JSON with it, so old rows carry the new field too. Run by the migration runner after the
 * migrations, under its lock; does nothing when the definition is current.
 */
export async function refreshMatchFeedJson(handle: DatabaseHandle): Promise<boolean> {
  const body = matchFeedJsonBody();
  const [installed] = rowsOf<{ body: string }>(
    await handle.db.execute(
      sql`select prosrc as body from pg_proc where oid = to_regprocedure('match_feed_json(matches)')`,
    ),
  );
  if (installed?.body === body) return false;
  await handle.db.transaction(async (tx) => {
    await tx.execute(
      sql.raw(
        `CREATE OR REPLACE FUNCTION "match_feed_json"(m "matches") RETURNS text LANGUAGE sql STABLE AS $$${body}$$`,
      ),
    );
    await tx.execute(sql`update ${matches} set feed_json = match_feed_json(${matches})`);
  });
  return true;
}
