import type { JsonText } from '../platform/json-text.ts';
import type { Match } from '../shared/match.ts';

/**
 * A match as the feed reads it: its stored JSON, its read flag and the fields that change after
 * it is stored (`LIVE_MATCH_FIELDS`: the rating and the relevance), read with `STORED_MATCH_COLUMNS`.
 */
export type StoredMatchRow = {
  readonly feed_json: string;
  readonly read: boolean;
  readonly rating: Match['rating'];
  readonly relevance: number | null;
  readonly relevance_reasons: string[];
};

/** The select list of a `StoredMatchRow`, for the feed's statements. */
export const STORED_MATCH_COLUMNS =
  'feed_json, read_at is not null as read, rating, relevance, relevance_reasons';

/** The fields of a match that its stored JSON leaves out, read beside it; the schema's last. */
type ChangingFields = Pick<Match, 'read' | 'rating' | 'relevance' | 'relevanceReasons'>;

function changingFields(row: StoredMatchRow): ChangingFields {
  return {
    read: row.read,
    rating: row.rating,
    relevance: row.relevance,
    relevanceReasons: row.relevance_reasons,
  };
}

/**
 * The wire match of a stored row: the JSON written with it (`matches.feed_json`, by
 * `match_feed_json`, derived from `matchSchema`: every field but those that change, in the
 * schema's order), then the read flag and the live fields, which are the schema's last.
 */
export function storedMatch(row: StoredMatchRow): Match {
  const stored: Omit<Match, keyof ChangingFields> = JSON.parse(row.feed_json);
  // Onto the parsed object rather than a copy of it: the feed page does this fifty times.
  return Object.assign(stored, changingFields(row));
}

/**
 * `storedMatch(row)` as JSON text, without parsing the stored JSON: it is an object's text, and
 * the same fields close it in the same order, so `JSON.parse` of this is `storedMatch(row)`
 * (tests/integration/api-matches.test.ts holds them equal).
 */
export function storedMatchJson(row: StoredMatchRow): JsonText<Match> {
  const changing = JSON.stringify(changingFields(row));
  return `${row.feed_json.slice(0, -1)},${changing.slice(1)}` as JsonText<Match>;
}
