import { STOP_WORDS } from '../matcher/stop-words.ts';
import { forEachWord, hashWord } from '../matcher/text.ts';

/**
 * How relevant a match is to the person who watches its monitor (docs/product.md, "Relevance";
 * docs/decisions/0033-relevance-model.md). Pure: the stored match's fields in, a score and
 * reasons out. Before a monitor has ratings the score comes from general signals (where the
 * hit is, how often, how much text there is); from the first rating on, a naive Bayes model
 * trained on that monitor's ratings weighs in, more with every rating.
 */

/** What the model reads of a match: the fields every stored match has. */
export type RelevanceInput = {
  readonly source: string;
  readonly kind: 'post' | 'comment';
  readonly title: string | null;
  readonly threadTitle: string | null;
  readonly snippet: string;
  readonly highlights: readonly (readonly [number, number])[];
  readonly titleHighlights: readonly (readonly [number, number])[];
  readonly hitFields: readonly string[];
  readonly author: string | null;
  readonly community: string | null;
};

export type Rating = 'relevant' | 'irrelevant';

export type RelevanceScore = { readonly relevance: number; readonly reasons: string[] };

/**
 * A monitor's model as stored (`relevance_models.model`, JSON): the weight of ratings of each
 * class (`[relevant, not relevant]`) and, per hashed feature, the weight of the rated matches
 * of each class that had it. A rating weighs 1, a dismissal 0.5; changing a rating takes the old
 * one's weight back, so the counts are always those of the ratings as they stand.
 */
export type RelevanceModel = {
  readonly version: 1;
  rated: [number, number];
  features: Record<string, [number, number]>;
};

/** A feature of a match: its bucket in the hashed space and how a reason names it. */
export type Feature = { readonly key: number; readonly label: string };

/** 2^18 buckets: few collisions for the thousands of words one monitor's ratings hold. */
const FEATURE_BITS = 18;
const FEATURE_MASK = (1 << FEATURE_BITS) - 1;
/** Past this many features the rarest are dropped, so a model stays small to load. */
const MAX_FEATURES = 40_000;
/** Additive smoothing of the per-class feature rates. */
const ALPHA = 0.5;
/** How much a dismissal counts as "not relevant", against 1 for a rating. */
export const DISMISS_WEIGHT = 0.5;
const EPSILON = 1e-6;

export function emptyModel(): RelevanceModel {
  return { version: 1, rated: [0, 0], features: {} };
}

/** A stored model, or an empty one when the JSON is not one (an older or foreign shape). */
export function readModel(stored: unknown): RelevanceModel {
  if (
    typeof stored === 'object' &&
    stored !== null &&
    (stored as { version?: unknown }).version === 1 &&
    Array.isArray((stored as { rated?: unknown }).rated) &&
    typeof (stored as { features?: unknown }).features === 'object'
  ) {
    return stored as RelevanceModel;
  }
  return emptyModel();
}

/** How many ratings (by weight) the model holds. */
export function ratedWeight(model: RelevanceModel): number {
  return model.rated[0] + model.rated[1];
}

const bucket = (text: string) => hashWord(text) & FEATURE_MASK;

/**
 * The features of a match, each once: the words of its title, thread title and snippet (stop
 * words and one-letter words aside) and the pairs of words next to each other, its site, its
 * community and its author.
 */
export function matchFeatures(input: RelevanceInput): Feature[] {
  const seen = new Set<number>();
  const features: Feature[] = [];
  const add = (hashed: string, label: string) => {
    const key = bucket(hashed);
    if (seen.has(key)) return;
    seen.add(key);
    features.push({ key, label });
  };
  add(`s:${input.source}`, `on ${input.source}`);
  if (input.community) {
    const community = input.community.toLowerCase();
    add(`c:${community}`, input.source === 'reddit' ? `r/${input.community}` : input.community);
  }
  if (input.author) add(`a:${input.author.toLowerCase()}`, `by ${input.author}`);
  for (const text of [input.title, input.threadTitle, input.snippet]) {
    if (!text) continue;
    let previous: string | null = null;
    forEachWord(text, (word) => {
      if (word.length < 2 || STOP_WORDS.has(word)) {
        previous = null;
        return;
      }
      add(`w:${word}`, `‘${word}’`);
      if (previous !== null) add(`b:${previous} ${word}`, `‘${previous} ${word}’`);
      previous = word;
    });
  }
  return features;
}

const classIndex = (rating: Rating) => (rating === 'relevant' ? 0 : 1);

/**
 * Adds a rating of a match with these features to the model, in place (`weight` 1 for a rating,
 * DISMISS_WEIGHT for a dismissal; the negative of an earlier rating's weight takes it back).
 */
export function train(
  model: RelevanceModel,
  features: readonly Feature[],
  rating: Rating,
  weight = 1,
): void {
  const c = classIndex(rating);
  model.rated[c] = Math.max(0, model.rated[c] + weight);
  for (const { key } of features) {
    const counts = model.features[key] ?? [0, 0];
    counts[c] = Math.max(0, counts[c] + weight);
    if (counts[0] < EPSILON && counts[1] < EPSILON) delete model.features[key];
    else model.features[key] = counts;
  }
  const keys = Object.keys(model.features);
  if (keys.length > MAX_FEATURES) {
    const weightOf = (key: string) => {
      const counts = model.features[key] ?? [0, 0];
      return counts[0] + counts[1];
    };
    keys.sort((a, b) => weightOf(a) - weightOf(b));
    for (const key of keys.slice(0, keys.length - MAX_FEATURES)) delete model.features[key];
  }
}

const logistic = (x: number) => 1 / (1 + Math.exp(-x));
const logit = (p: number) => Math.log(p / (1 - p));

/** The general signals, for a monitor without ratings: a score and what it rests on. */
export function generalScore(input: RelevanceInput): RelevanceScore {
  let score = 0.5;
  const reasons: string[] = [];
  const hits = input.highlights.length + input.titleHighlights.length;
  if (input.hitFields.includes('title')) {
    score += 0.2;
    reasons.push('the words are in the title');
  } else if (input.hitFields.length === 1 && input.hitFields[0] === 'url') {
    score -= 0.2;
    reasons.push('the words are only in the link');
  }
  if (hits >= 3) {
    score += 0.1;
    reasons.push(`the words appear ${hits} times`);
  }
  const words = (input.title?.length ?? 0) + input.snippet.length;
  if (words < 80) {
    score -= 0.15;
    reasons.push('very little text');
  } else if (hits === 1 && input.snippet.length >= 250 && !input.hitFields.includes('title')) {
    score -= 0.05;
    reasons.push('mentioned once in passing');
  }
  return { relevance: Math.min(0.95, Math.max(0.05, score)), reasons };
}

/** How much one rated feature moves the score, and why. */
type Evidence = { llr: number; feature: Feature; counts: [number, number] };

/**
 * The relevance of a match with these features (`matchFeatures`) to the monitor whose model
 * this is: the general score alone without ratings; with them, the model's log-odds (the
 * ratings' balance plus each seen feature's log-likelihood ratio, tempered by the number of
 * features, as naive Bayes' independence overcounts) on top of the general score, which fades as
 * ratings come in. Features no rated match had say nothing. At most three reasons.
 */
export function scoreMatch(
  model: RelevanceModel,
  input: RelevanceInput,
  given?: readonly Feature[],
): RelevanceScore {
  const general = generalScore(input);
  const [relevant, irrelevant] = model.rated;
  const rated = relevant + irrelevant;
  // Without ratings (most monitors) the features are never computed.
  if (rated < EPSILON) return general;
  const features = given ?? matchFeatures(input);
  const relevantRate = 1 / (relevant + 2 * ALPHA);
  const irrelevantRate = 1 / (irrelevant + 2 * ALPHA);
  let sum = 0;
  let seen = 0;
  const evidence: Evidence[] = [];
  for (const feature of features) {
    const counts = model.features[feature.key];
    if (!counts) continue;
    const llr = Math.log(
      ((counts[0] + ALPHA) * relevantRate) / ((counts[1] + ALPHA) * irrelevantRate),
    );
    sum += llr;
    seen++;
    if (Math.abs(llr) > 0.3) evidence.push({ llr, feature, counts });
  }
  const prior = Math.log((relevant + 1) / (irrelevant + 1));
  const fade = 2 / (2 + rated);
  const logOdds = fade * logit(general.relevance) + prior + (seen > 0 ? sum / Math.sqrt(seen) : 0);
  const relevance = logistic(logOdds);
  const positive = relevance >= 0.5;
  const reasons = evidence
    .filter((e) => e.llr > 0 === positive)
    .sort((a, b) => Math.abs(b.llr) - Math.abs(a.llr))
    .slice(0, 3)
    .map(({ feature, counts }) => {
      const n = Math.round(positive ? counts[0] : counts[1]);
      return `${feature.label}: in ${n} you marked ${positive ? 'relevant' : 'not relevant'}`;
    });
  if (reasons.length === 0) {
    reasons.push(
      `nothing stands out among the ${Math.round(rated)} you rated`,
      ...general.reasons.slice(0, 2),
    );
  }
  return { relevance, reasons };
}
