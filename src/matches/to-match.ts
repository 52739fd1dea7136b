import { getTableColumns } from 'drizzle-orm';
import { type MatchRow, matches } from '../db/schema/matches.ts';
import { type Match, matchFieldSources, matchSchema } from '../shared/match.ts';

const { search: _search, feedJson: _feedJson, ...readColumns } = getTableColumns(matches);

/**
 * The columns a match is read with for `toMatch`: all but its search vector and its stored JSON,
 * which only the database reads.
 */
export const matchColumns = readColumns;

/**
 * What `toMatch` reads of a row: every field of `matchSchema` by its source (a column of the
 * field's name, `id`, `readAt`). A field of the schema without such a column fails here, at
 * compile time.
 */
export type MatchFields = Pick<MatchRow, Exclude<keyof Match, 'read'> | 'readAt'>;

const FIELDS = Object.entries(matchSchema.shape).map(([key, schema]) => ({
  key,
  from: matchFieldSources.get(schema)?.from ?? 'column',
}));

/**
 * The wire shape of a `matches` row, field by field as `matchSchema` lists them (the same list
 * the stored JSON is derived from), checked against the schema.
 */
export function toMatch(row: MatchFields): Match {
  const values: Record<string, unknown> = row;
  const match: Record<string, unknown> = {};
  for (const { key, from } of FIELDS) {
    const value = values[key];
    if (from === 'id') match[key] = String(row.id);
    else if (from === 'read') match[key] = row.readAt !== null;
    else if (from === 'instant' && value instanceof Date) match[key] = value.toISOString();
    else match[key] = value;
  }
  return matchSchema.parse(match);
}
