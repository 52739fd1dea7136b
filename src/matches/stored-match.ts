import type { Match } from '../shared/match.ts';

/** A match as the feed reads it: its stored JSON and its read flag. */
export type StoredMatchRow = { readonly feed_json: string; readonly read: boolean };

/**
 * The wire match of a stored row: the JSON written with it (`matches.feed_json`, by
 * `match_feed_json`, derived from `matchSchema`: every field but the read flag, in the schema's
 * order) and the read flag, which is the one field that changes.
 */
export function storedMatch(row: StoredMatchRow): Match {
  const stored: Omit<Match, 'read'> = JSON.parse(row.feed_json);
  // Onto the parsed object rather than a copy of it: the feed page does this fifty times.
  return Object.assign(stored, { read: row.read });
}
