import { z } from 'zod';

/**
 * What Earshot reads of an item besides its words (issue 24): what it is doing (`intents`), its
 * tone (`sentiment`) and its language. Computed when first read (src/signals: by the matcher,
 * for a monitor that filters on them or an item that makes a match, and by the preview), copied
 * onto its matches, filtered on by the query language (`intent:`, `sentiment:`, `lang:`) and by
 * the feed. Hints, not facts: a rule or a model read them (docs/decisions/0035-…, 0043-…).
 */

/** What a post or comment is doing, a closed set; an item has none, one or several. */
export const INTENTS = [
  'question',
  'recommendation',
  'comparison',
  'complaint',
  'praise',
  'hiring',
  'launch',
] as const;
export type Intent = (typeof INTENTS)[number];

export const SENTIMENTS = ['positive', 'neutral', 'negative'] as const;
export type Sentiment = (typeof SENTIMENTS)[number];

/** An ISO 639-1 code, lower case. */
export const LANGUAGE_PATTERN = /^[a-z]{2}$/;

export const intentSchema = z.enum(INTENTS);
export const sentimentSchema = z.enum(SENTIMENTS);
export const languageSchema = z
  .string()
  .regex(LANGUAGE_PATTERN, 'must be an ISO 639-1 code like en');

/** The signals of one item. */
export type ItemSignals = {
  /** In the order of `INTENTS`; empty when no rule was sure. */
  readonly intents: readonly Intent[];
  /** Null when the item is not in English (the model reads English only) or has no text. */
  readonly sentiment: Sentiment | null;
  /** Null when the text is too short or too mixed to tell. */
  readonly language: string | null;
};

/** What the app says of each intent (filter chips, the query help). */
export const INTENT_LABELS: Readonly<Record<Intent, string>> = {
  question: 'Question',
  recommendation: 'Asks for a tool',
  comparison: 'Comparison',
  complaint: 'Complaint',
  praise: 'Praise',
  hiring: 'Hiring',
  launch: 'Launch',
};

/** A signal filter of the feed: `intent=question` or, typed in its search, `-lang:en`. */
export type SignalFilter = {
  readonly field: 'intent' | 'sentiment' | 'lang';
  readonly value: string;
  readonly negated: boolean;
};

const SIGNAL_TOKEN = /^(-?)(intent|sentiment|lang|language):(\S+)$/iu;

/** Whether `value` is one of the values `field` can take. */
export function isSignalValue(field: SignalFilter['field'], value: string): boolean {
  if (field === 'intent') return (INTENTS as readonly string[]).includes(value);
  if (field === 'sentiment') return (SENTIMENTS as readonly string[]).includes(value);
  return LANGUAGE_PATTERN.test(value);
}

/**
 * The feed's search text split into its signal filters (`intent:question`, `-sentiment:negative`,
 * `lang:en`, as in the query language) and the words left to search. A token whose value is
 * not one a signal takes stays a word.
 */
export function splitSignalFilters(q: string): { filters: SignalFilter[]; words: string } {
  const filters: SignalFilter[] = [];
  const words: string[] = [];
  for (const token of q.split(/\s+/u).filter(Boolean)) {
    const found = SIGNAL_TOKEN.exec(token);
    const name = found?.[2]?.toLowerCase();
    const field = name === 'language' ? 'lang' : (name as SignalFilter['field'] | undefined);
    const value = found?.[3]?.toLowerCase() ?? '';
    if (field && isSignalValue(field, value)) {
      filters.push({ field, value, negated: found?.[1] === '-' });
    } else {
      words.push(token);
    }
  }
  return { filters, words: words.join(' ') };
}
