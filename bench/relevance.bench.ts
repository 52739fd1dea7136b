// The relevance model (src/relevance, decision 0033) on the recorded real items
// (tests/fixtures/items/items.jsonl: Reddit, Hacker News, Lobsters):
//   npm run bench -- relevance [--rounds 5]
//
// 1. Evaluation. Monitors on words that both developer communities and everyone else use; a
//    match is relevant by a rule the model is not told: it comes from a developer community
//    (r/programming, r/technology, Hacker News, Lobsters, …). The model sees each match's
//    community, words, site and author, never the rule. The matches are taken in time order; the
//    first k (0, 5, 10, 20, 40) are rated by the rule and trained on one by one, as a user would,
//    then the rest are scored: ROC AUC, and precision and recall at the default threshold 0.5.
//    The words are chosen by a rule too (every word of 5+ letters with 60+ matches of which 15 to
//    85% are relevant), so the table is not a hand-picked best case.
// 2. Speed. Scoring one match (features + model) against the matcher's own work on the same item
//    (`MonitorIndex.match` for one monitor), the baseline measured in the same run. Figures and the
//    command: docs/PERFORMANCE.md.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createMonitorIndex } from '../src/matcher/monitor-index.ts';
import { STOP_WORDS } from '../src/matcher/stop-words.ts';
import { forEachWord } from '../src/matcher/text.ts';
import { type ItemMatch, matchOfItem } from '../src/matches/match-of-item.ts';
import {
  emptyModel,
  matchFeatures,
  type RelevanceModel,
  scoreMatch,
  train,
} from '../src/relevance/relevance-model.ts';
import type { NormalisedItem } from '../src/sources/normalised-item.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);

const ITEMS = new URL('../tests/fixtures/items/items.jsonl', import.meta.url);
const items = readFileSync(ITEMS, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((line) => {
    const { id: _id, ...item } = JSON.parse(line) as NormalisedItem & { id: string };
    return item;
  })
  .map((item, i) => ({ item, key: shuffleKey(i) }))
  .sort((a, b) => a.key - b.key)
  .map(({ item }) => item);

/**
 * The order the matches arrive in: a fixed shuffle. The recordings span 2007 to 2026 a site at a
 * time (all of Hacker News's oldest items first), so time order would rate one site and score
 * the others; a live monitor sees the sites interleaved.
 */
function shuffleKey(i: number): number {
  let x = Math.imul(i + 1, 0x9e3779b1) >>> 0;
  x = Math.imul(x ^ (x >>> 15), 0x85ebca6b) >>> 0;
  return (x ^ (x >>> 13)) >>> 0;
}

/** The hidden rule: the user means the word as developers use it. */
const DEVELOPER_COMMUNITIES = new Set([
  'programming',
  'technology',
  'compsci',
  'webdev',
  'linux',
  'javascript',
  'python',
  'rust',
  'golang',
  'sysadmin',
  'netsec',
  'coding',
  'learnprogramming',
]);
const isRelevant = (item: Pick<NormalisedItem, 'source' | 'community'>) =>
  item.source === 'hackernews' ||
  item.source === 'lobsters' ||
  DEVELOPER_COMMUNITIES.has(item.community ?? '');

const MIN_MATCHES = 60;

/** Every word of 5+ letters with 60+ items, 15–85% of them relevant, most frequent first. */
function chooseWords(): string[] {
  const counts = new Map<string, { all: number; relevant: number }>();
  for (const item of items) {
    const words = new Set<string>();
    forEachWord(`${item.title ?? ''} ${item.body}`, (word) => {
      if (word.length >= 5 && !STOP_WORDS.has(word) && /^[a-z]+$/.test(word)) words.add(word);
    });
    for (const word of words) {
      const count = counts.get(word) ?? { all: 0, relevant: 0 };
      count.all++;
      if (isRelevant(item)) count.relevant++;
      counts.set(word, count);
    }
  }
  return [...counts]
    .filter(
      ([, c]) => c.all >= MIN_MATCHES && c.relevant / c.all >= 0.15 && c.relevant / c.all <= 0.85,
    )
    .sort((a, b) => b[1].all - a[1].all)
    .map(([word]) => word);
}

type Labelled = { match: ItemMatch; relevant: boolean };

function matchesOf(word: string): Labelled[] {
  const index = createMonitorIndex();
  index.add('m', word);
  const found: Labelled[] = [];
  for (const item of items) {
    const [hit] = index.match(item);
    if (!hit) continue;
    found.push({
      match: matchOfItem(
        {
          ...item,
          threadId: item.threadId ?? null,
          intents: [],
          sentiment: null,
          language: null,
          createdAt: new Date(item.createdAt),
        },
        hit.highlights,
      ),
      relevant: isRelevant(item),
    });
  }
  return found;
}

/** ROC AUC: the chance a relevant match scores above an irrelevant one (ties count half). */
function rocAuc(scored: readonly { score: number; relevant: boolean }[]): number {
  const positives = scored.filter((s) => s.relevant);
  const negatives = scored.filter((s) => !s.relevant);
  if (positives.length === 0 || negatives.length === 0) return Number.NaN;
  let wins = 0;
  for (const p of positives) {
    for (const n of negatives) wins += p.score > n.score ? 1 : p.score === n.score ? 0.5 : 0;
  }
  return wins / (positives.length * negatives.length);
}

const RATINGS = [0, 5, 10, 20, 40] as const;
const THRESHOLD = 0.5;
type Result = { auc: number; precision: number; recall: number; kept: number };

/** Rates the first `k` (from the first match on, as they arrive), scores the matches after 40. */
function evaluate(matches: readonly Labelled[], k: number): Result {
  const model: RelevanceModel = emptyModel();
  for (const { match, relevant } of matches.slice(0, k)) {
    train(model, matchFeatures(match), relevant ? 'relevant' : 'irrelevant');
  }
  // The same held-out matches for every k, so the columns compare.
  const rest = matches.slice(40).map(({ match, relevant }) => ({
    score: scoreMatch(model, match).relevance,
    relevant,
  }));
  const kept = rest.filter((s) => s.score >= THRESHOLD);
  const relevantKept = kept.filter((s) => s.relevant).length;
  const relevantAll = rest.filter((s) => s.relevant).length;
  return {
    auc: rocAuc(rest),
    precision: kept.length > 0 ? relevantKept / kept.length : Number.NaN,
    recall: relevantAll > 0 ? relevantKept / relevantAll : Number.NaN,
    kept: kept.length,
  };
}

const f2 = (x: number) => (Number.isNaN(x) ? '–' : x.toFixed(2));
const words = chooseWords();
console.log(
  `${items.length} recorded items; monitors on ${words.length} words: ${words.join(', ')}`,
);
console.log('');
console.log(
  `| word | matches | relevant | ${RATINGS.map((k) => `AUC ${k}`).join(' | ')} | precision@0.5 (20) | recall@0.5 (20) |`,
);
console.log(`|${' --- |'.repeat(5 + RATINGS.length)}`);
const sums = RATINGS.map(() => ({ auc: 0, precision: 0, recall: 0, n: 0, p: 0 }));
for (const word of words) {
  const matches = matchesOf(word);
  const relevant = matches.filter((m) => m.relevant).length;
  const results = RATINGS.map((k) => evaluate(matches, k));
  results.forEach((result, i) => {
    const sum = sums[i];
    if (!sum) return;
    sum.auc += result.auc;
    sum.n++;
    if (!Number.isNaN(result.precision)) {
      sum.precision += result.precision;
      sum.p++;
    }
    sum.recall += Number.isNaN(result.recall) ? 0 : result.recall;
  });
  const at20 = results[RATINGS.indexOf(20)];
  console.log(
    `| ${word} | ${matches.length} | ${(relevant / matches.length).toFixed(2)} | ${results.map((r) => f2(r.auc)).join(' | ')} | ${f2(at20?.precision ?? Number.NaN)} | ${f2(at20?.recall ?? Number.NaN)} |`,
  );
}
console.log(
  `| **mean** | | | ${sums.map((s) => f2(s.auc / s.n)).join(' | ')} | ${f2((sums[3]?.precision ?? 0) / (sums[3]?.p ?? 1))} | ${f2((sums[3]?.recall ?? 0) / (sums[3]?.n ?? 1))} |`,
);
console.log('');
console.log(
  `precision at 0.5 by ratings: ${RATINGS.map((k, i) => `${k}: ${f2((sums[i]?.precision ?? 0) / (sums[i]?.p ?? 1))}`).join(', ')}`,
);

// Speed: score every match of the first word with a model of 40 ratings, against matching
// the same items with the matcher (one monitor), in alternating rounds.
const speedWord = words[0] ?? 'people';
const speedMatches = matchesOf(speedWord);
const model = emptyModel();
for (const { match, relevant } of speedMatches.slice(0, 40)) {
  train(model, matchFeatures(match), relevant ? 'relevant' : 'irrelevant');
}
const index = createMonitorIndex();
index.add('m', speedWord);
const speedItems = items.filter((item) => index.match(item).length > 0);
let sink = 0;
function timeScoring(): number {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 500) {
    for (const { match } of speedMatches) sink += scoreMatch(model, match).relevance;
    n += speedMatches.length;
  }
  return ((performance.now() - start) * 1000) / n;
}
function timeMatching(): number {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 500) {
    for (const item of speedItems) sink += index.match(item).length;
    n += speedItems.length;
  }
  return ((performance.now() - start) * 1000) / n;
}
timeScoring();
timeMatching();
const scoring: number[] = [];
const matching: number[] = [];
for (let round = 0; round < rounds; round++) {
  if (round % 2 === 0) {
    scoring.push(timeScoring());
    matching.push(timeMatching());
  } else {
    matching.push(timeMatching());
    scoring.push(timeScoring());
  }
}
// A monitor without ratings, as most are: the general signals alone.
const unrated = emptyModel();
function timeUnrated(): number {
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < 500) {
    for (const { match } of speedMatches) sink += scoreMatch(unrated, match).relevance;
    n += speedMatches.length;
  }
  return ((performance.now() - start) * 1000) / n;
}
const general = Array.from({ length: rounds }, timeUnrated);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
console.log('');
console.log(
  `scoring one match (model of 40 ratings, ${Object.keys(model.features).length} features): ${median(scoring).toFixed(1)} µs median (rounds: ${scoring.map((x) => x.toFixed(1)).join(', ')})`,
);
console.log(
  `baseline, the matcher on the same item: ${median(matching).toFixed(1)} µs (rounds: ${matching.map((x) => x.toFixed(1)).join(', ')}); scoring/matching ${(median(scoring) / median(matching)).toFixed(2)}×`,
);
console.log(
  `scoring one match of a monitor without ratings (general signals): ${median(general).toFixed(2)} µs median`,
);
if (sink === 0.123) console.log('');
