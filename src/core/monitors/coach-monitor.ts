import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { matches } from '../../db/schema/matches.ts';
import { monitors } from '../../db/schema/monitors.ts';
import { createMonitorIndex, type MatchableItem } from '../../matcher/monitor-index.ts';
import { parseQuery } from '../../matcher/query-parser.ts';
import { STOP_WORDS } from '../../matcher/stop-words.ts';
import { forEachWord } from '../../matcher/text.ts';
import { MONITOR_QUERY_MAX_LENGTH, type MonitorCoach } from '../../shared/monitor.ts';
import { monitorNotFound } from './get-monitor.ts';

/** How many of the monitor's newest matches the coach reads. */
const COACH_MATCHES = 2000;
const MAX_SUGGESTIONS = 5;
/** A term is suggested when at least this many not relevant matches share it… */
const MIN_SHARED = 2;

type Term = { kind: 'word' | 'community' | 'author'; change: string };
type Stored = {
  rating: 'relevant' | 'irrelevant' | null;
  relevance: number | null;
  item: MatchableItem;
  terms: Map<string, Term>;
};

const PLAIN_NAME = /^[A-Za-z0-9_]+$/;

/**
 * The query coach (docs/product.md, "Relevance"): the words, communities and authors most of
 * the monitor's "not relevant" matches share and few of its relevant ones do, each as a change
 * to the query (`-word`, `-subreddit:name`, `-author:name`), back-tested on the stored matches
 * with the matcher itself: a match counts as removed when the new query no longer matches it
 * (its title, snippet, link, author and community, as stored). Only changes that remove more
 * not relevant than relevant matches are suggested, best first.
 */
export async function coachMonitor(
  ctx: { db: Database },
  input: { userId: string; monitorId: string },
): Promise<MonitorCoach> {
  const [monitor] = await ctx.db
    .select({ query: monitors.query })
    .from(monitors)
    .where(and(eq(monitors.id, input.monitorId), eq(monitors.userId, input.userId)));
  if (!monitor) throw monitorNotFound();
  const rows = await ctx.db
    .select({
      source: matches.source,
      title: matches.title,
      snippet: matches.snippet,
      url: matches.url,
      author: matches.author,
      community: matches.community,
      rating: matches.rating,
      relevance: matches.relevance,
    })
    .from(matches)
    .where(eq(matches.monitorId, input.monitorId))
    .orderBy(desc(matches.id))
    .limit(COACH_MATCHES);
  const queryWords = new Set<string>();
  forEachWord(monitor.query, (word) => queryWords.add(word));

  const stored: Stored[] = rows.map((row) => {
    const item: MatchableItem = {
      source: row.source,
      title: row.title,
      body: row.snippet,
      url: row.url,
      author: row.author,
      community: row.community,
    };
    const terms: Stored['terms'] = new Map();
    if (row.community && PLAIN_NAME.test(row.community) && row.source !== 'feeds') {
      const name = row.community.toLowerCase();
      terms.set(`c:${name}`, { kind: 'community', change: `-subreddit:${name}` });
    }
    if (row.author && PLAIN_NAME.test(row.author)) {
      terms.set(`a:${row.author.toLowerCase()}`, {
        kind: 'author',
        change: `-author:${row.author}`,
      });
    }
    forEachWord(`${row.title ?? ''} ${row.snippet}`, (word) => {
      if (word.length < 3 || STOP_WORDS.has(word) || queryWords.has(word)) return;
      if (!/^\p{L}+$/u.test(word)) return;
      terms.set(`w:${word}`, { kind: 'word', change: `-${word}` });
    });
    return { rating: row.rating, relevance: row.relevance, item, terms };
  });

  const rated = stored.filter((m) => m.rating !== null);
  const irrelevant = rated.filter((m) => m.rating === 'irrelevant');
  const relevant = rated.filter((m) => m.rating === 'relevant');
  const shared = new Map<string, Term & { bad: number; good: number }>();
  for (const match of rated) {
    for (const [key, term] of match.terms) {
      const count = shared.get(key) ?? { ...term, bad: 0, good: 0 };
      if (match.rating === 'irrelevant') count.bad++;
      else count.good++;
      shared.set(key, count);
    }
  }
  const candidates = [...shared.values()]
    .filter((c) => c.bad >= MIN_SHARED && c.good * 4 <= c.bad)
    .sort((a, b) => b.bad - 3 * b.good - (a.bad - 3 * a.good) || a.change.localeCompare(b.change))
    .slice(0, MAX_SUGGESTIONS * 3);

  const suggestions: MonitorCoach['suggestions'] = [];
  const matchesQuery = (query: string) => {
    const index = createMonitorIndex();
    index.add('m', query);
    return (item: MatchableItem) => index.match(item).length > 0;
  };
  const before = matchesQuery(monitor.query);
  const kept = stored.filter((m) => before(m.item));
  for (const candidate of candidates) {
    const query = `(${monitor.query}) ${candidate.change}`;
    if (query.length > MONITOR_QUERY_MAX_LENGTH) continue;
    try {
      parseQuery(query);
    } catch {
      continue;
    }
    const after = matchesQuery(query);
    const removed = kept.filter((m) => !after(m.item));
    const removesIrrelevant = removed.filter((m) => m.rating === 'irrelevant').length;
    const removesRelevant = removed.filter((m) => m.rating === 'relevant').length;
    if (removesIrrelevant <= removesRelevant) continue;
    suggestions.push({
      kind: candidate.kind,
      change: candidate.change,
      query,
      removesIrrelevant,
      removesRelevant,
      removesUnrated: removed.filter((m) => m.rating === null).length,
      summary: `removes ${removesIrrelevant} of your ${irrelevant.length} not relevant, ${removesRelevant} of ${relevant.length} relevant`,
    });
    if (suggestions.length === MAX_SUGGESTIONS) break;
  }
  return {
    rated: { relevant: relevant.length, irrelevant: irrelevant.length },
    scores: rated.map((m) => ({ relevance: m.relevance, rating: m.rating ?? 'irrelevant' })),
    suggestions,
  };
}
