import { type MatchRow, matches } from '../../db/schema/matches.ts';
import type { Match } from '../../shared/match.ts';

/**
 * A match row without what only the database reads (its search vector, its stored JSON) and
 * without delivery's markers.
 */
export type MatchFields = Omit<MatchRow, 'search' | 'feedJson' | 'emailPending' | 'webhookPending'>;

/** The columns to select for `toMatch` (the fields of `MatchFields`). */
export const matchColumns = {
  id: matches.id,
  userId: matches.userId,
  monitorId: matches.monitorId,
  source: matches.source,
  externalId: matches.externalId,
  kind: matches.kind,
  title: matches.title,
  snippet: matches.snippet,
  highlights: matches.highlights,
  url: matches.url,
  permalink: matches.permalink,
  author: matches.author,
  community: matches.community,
  itemCreatedAt: matches.itemCreatedAt,
  matchedAt: matches.matchedAt,
  readAt: matches.readAt,
};

/** The wire shape of a `matches` row. */
export function toMatch(row: MatchFields): Match {
  return {
    id: String(row.id),
    monitorId: row.monitorId,
    source: row.source,
    kind: row.kind,
    title: row.title,
    snippet: row.snippet,
    highlights: row.highlights,
    url: row.url,
    permalink: row.permalink,
    author: row.author,
    community: row.community,
    itemCreatedAt: row.itemCreatedAt.toISOString(),
    matchedAt: row.matchedAt.toISOString(),
    read: row.readAt !== null,
  };
}
