import type { MatchRow } from '../../db/schema/matches.ts';
import type { Match } from '../../shared/match.ts';

/** The wire shape of a `matches` row. */
export function toMatch(row: MatchRow): Match {
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
