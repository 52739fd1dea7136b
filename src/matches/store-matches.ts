import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from '../db/client.ts';
import { matches } from '../db/schema/matches.ts';
import { monitors, monitorThreadMutes } from '../db/schema/monitors.ts';
import { searchDocumentLiteral } from '../db/search-text.ts';
import { emptyModel, scoreMatch } from '../relevance/relevance-model.ts';
import type { NewMatch } from './match-events.ts';
import type { ItemMatch } from './match-of-item.ts';
import { monitorMakesMatches } from './monitor-makes-matches.ts';
import { loadRelevanceModels, storedScore } from './monitor-relevance.ts';

/** A match to store: the monitor that made it and what it keeps of the item (`matchOfItem`). */
export type MatchToStore = { readonly monitorId: string; readonly match: ItemMatch };

const ROWS_PER_INSERT = 1000;
const UNCAPPED = 2_147_483_647;

/**
 * Stores matches once per `(monitor, item)`, in the caller's transaction, and raises the
 * monitors' counters by what was stored. Each is joined with its monitor, read in this
 * transaction: a monitor deleted or paused since the matcher's index last heard of it makes no
 * match (`monitorMakesMatches`), and the monitor gives the owner. Rows go in from column arrays
 * (`unnest`: the query builder's cost grows with rows × columns, this one's does not), with
 * their search document written here. Returns what was stored, to announce after the commit: a
 * repeat after a crash conflicts and stores nothing.
 *
 * A monitor stores at most `matchesPerHour` matches in a clock hour (UTC), so one account's broad
 * monitors cannot multiply the database's writes: the rest of that hour are counted in
 * `monitors.hour_dropped` and not stored (its card says so), and the count starts again with the
 * next hour's first match (docs/decisions/0028-preview-budget.md).
 */
export async function storeMatches(
  tx: Pick<Database, 'execute'>,
  toStore: readonly MatchToStore[],
  options: { matchesPerHour?: number | undefined } = {},
): Promise<NewMatch[]> {
  const stored: NewMatch[] = [];
  const cap = Math.min(options.matchesPerHour ?? UNCAPPED, UNCAPPED);
  for (let start = 0; start < toStore.length; start += ROWS_PER_INSERT) {
    for (const row of await insertMatches(tx, toStore.slice(start, start + ROWS_PER_INSERT), cap)) {
      stored.push({ userId: row.user_id, matchId: Number(row.id) });
    }
  }
  return stored;
}

async function insertMatches(
  tx: Pick<Database, 'execute'>,
  rows: readonly MatchToStore[],
  cap: number,
): Promise<{ id: string; user_id: string }[]> {
  const column = <T>(read: (match: ItemMatch) => T) =>
    sql.param(rows.map((row) => read(row.match)));
  // Each match's relevance to its monitor (src/relevance), with the monitor's model if it has one.
  const models = await loadRelevanceModels(
    tx,
    rows.map((row) => row.monitorId),
  );
  const empty = emptyModel();
  const scores = rows.map((row) =>
    storedScore(scoreMatch(models.get(row.monitorId) ?? empty, row.match)),
  );
  const hour = sql`date_trunc('hour', now(), 'UTC')`;
  const result = await tx.execute(sql`
    with hit as (
      select r.*, m.user_id,
        row_number() over (partition by r.monitor_id order by r.ord) as rank,
        ${cap}::int - case when m.hour_started_at = ${hour} then m.hour_matches else 0 end as room
      from unnest(
        ${sql.param(rows.map((row) => row.monitorId))}::uuid[],
        ${column((m) => m.source)}::text[],
        ${column((m) => m.externalId)}::text[],
        ${column((m) => m.kind)}::text[],
        ${column((m) => m.title)}::text[],
        ${column((m) => JSON.stringify(m.titleHighlights))}::text[],
        ${column((m) => m.threadTitle)}::text[],
        ${column((m) => m.threadId)}::text[],
        ${column((m) => m.snippet)}::text[],
        ${column((m) => JSON.stringify(m.highlights))}::text[],
        ${column((m) => JSON.stringify(m.hitFields))}::text[],
        ${column((m) => m.url)}::text[],
        ${column((m) => m.permalink)}::text[],
        ${column((m) => m.author)}::text[],
        ${column((m) => m.community)}::text[],
        ${column((m) => `{${m.intents.join(',')}}`)}::text[],
        ${column((m) => m.sentiment)}::text[],
        ${column((m) => m.language)}::text[],
        ${column((m) => m.itemCreatedAt.toISOString())}::timestamptz[],
        ${column((m) => searchDocumentLiteral(m.title, m.snippet, m.author, m.community))}::text[],
        ${sql.param(scores.map((score) => score.relevance))}::real[],
        ${sql.param(scores.map((score) => JSON.stringify(score.reasons)))}::text[]
      ) with ordinality as r(monitor_id, source, external_id, kind, title, title_highlights,
        thread_title, thread_id, snippet, highlights, hit_fields, url, permalink, author, community,
        intents, sentiment, language, item_created_at, search, relevance, relevance_reasons, ord)
      -- A lookup by key for each row: a join would read every monitor into a hash first.
      cross join lateral (select ${monitors.userId}, ${monitors.hourStartedAt}, ${monitors.hourMatches}
        from ${monitors} where ${monitors.id} = r.monitor_id and ${monitorMakesMatches()}) as m
      -- A thread muted from an email (decision 0038) makes no more matches for that monitor.
      where r.thread_id is null or not exists (select 1 from ${monitorThreadMutes} t
        where t.monitor_id = r.monitor_id and t.source = r.source and t.thread_id = r.thread_id)
    ),
    inserted as (
      insert into ${matches} (user_id, monitor_id, source, external_id, kind, title,
        title_highlights, thread_title, thread_id, snippet, highlights, hit_fields, url, permalink,
        author, community, intents, sentiment, language, item_created_at, search, relevance,
        relevance_reasons)
      select user_id, monitor_id, source, external_id, kind, title, title_highlights::jsonb,
        thread_title, thread_id, snippet, highlights::jsonb, hit_fields::jsonb, url, permalink, author,
        community, intents::text[], sentiment, language, item_created_at, search::tsvector,
        relevance, relevance_reasons::jsonb
      -- In the order given (ids follow the items' order), not the window's partitions.
      from hit where rank <= room order by ord
      on conflict (monitor_id, source, external_id) do nothing
      returning id, user_id, monitor_id, matched_at
    ),
    counted as (
      update ${monitors} set
        match_count = ${monitors.matchCount} + c.n,
        last_match_at = coalesce(c.at, ${monitors.lastMatchAt}),
        hour_matches = case when ${monitors.hourStartedAt} = ${hour} then ${monitors.hourMatches} else 0 end + c.n,
        hour_dropped = case when ${monitors.hourStartedAt} = ${hour} then ${monitors.hourDropped} else 0 end + c.dropped,
        hour_started_at = ${hour}
      from (
        select monitor_id, sum(n)::int as n, max(at) as at, sum(dropped)::int as dropped from (
          select monitor_id, 1 as n, matched_at as at, 0 as dropped from inserted
          union all
          select monitor_id, 0, null, 1 from hit where rank > room
        ) as u group by monitor_id
      ) as c
      where ${monitors.id} = c.monitor_id
    )
    select id::text as id, user_id::text as user_id from inserted order by id`);
  return rowsOf(result);
}
