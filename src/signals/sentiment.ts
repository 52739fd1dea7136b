import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';
import type { Sentiment } from '../shared/signals.ts';

// wink-nlp with its English model, loaded from the package once per process (no download): a
// lexicon with negation and emphasis handling, about 0.1 ms for a 700-character text.
const nlp = winkNLP(model, ['sbd', 'negation', 'sentiment']);
const its = nlp.its;

/**
 * The score (−1 to 1) from which a text counts as positive or negative; between them it is
 * neutral. Chosen on the labelled samples (bench/signals-eval.ts) for precision: most posts are
 * matter-of-fact and a lexicon finds a "good" or a "problem" in nearly all of them.
 */
export const SENTIMENT_THRESHOLD = 0.4;

/** How much text the model reads: the tone of a post is set early; the rest costs time. */
const SENTIMENT_CHARS = 1000;

/** The tone of an English text; the score is wink-nlp's document sentiment. */
export function sentimentOf(text: string): { sentiment: Sentiment; score: number } {
  const score = nlp.readDoc(text.slice(0, SENTIMENT_CHARS)).out(its.sentiment) as number;
  const sentiment =
    score >= SENTIMENT_THRESHOLD
      ? 'positive'
      : score <= -SENTIMENT_THRESHOLD
        ? 'negative'
        : 'neutral';
  return { sentiment, score };
}
