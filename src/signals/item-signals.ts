import type { Intent, ItemSignals, Sentiment } from '../shared/signals.ts';
import { classifyIntents } from './intents.ts';
import { languageOf } from './language.ts';
import { sentimentOf } from './sentiment.ts';

/** The part of an item its signals are read from. */
export type SignalInput = {
  readonly title: string | null;
  readonly body: string;
  readonly kind: 'post' | 'comment';
  readonly url?: string | null;
};

/**
 * An item's signals as its row holds them: null `intents` when they were not computed yet
 * (then `sentiment` and `language` say nothing either; decision 0043).
 */
export type StoredSignals = {
  readonly intents: readonly Intent[] | null;
  readonly sentiment: Sentiment | null;
  readonly language: string | null;
};

/** An item whose signals can be read: its own, or computed on first read. */
export type WithSignals<T> = Omit<T, keyof ItemSignals> & ItemSignals;

// Links, code and handles carry no tone and no language, and mislead both models.
const NOISE = /https?:\/\/\S+|`{3}[\s\S]*?`{3}|`[^`\n]*`|(?:^|\s)[@#][\w.-]+/gu;

/**
 * An item's signals: its intents (rules of our own, `classifyIntents`), its language (eld) and,
 * for English, its sentiment (wink-nlp). Nothing here reads the network or the disk after the
 * models load with the module. Some 0.1–0.4 ms an item: callers compute them only for the
 * items something reads them of (`withSignalsOnRead`).
 */
export function itemSignals(item: SignalInput): ItemSignals {
  const text = `${item.title ?? ''}\n${item.body}`.replace(NOISE, ' ');
  const language = languageOf(text);
  return {
    intents: classifyIntents(item),
    language,
    sentiment: language === 'en' ? sentimentOf(text).sentiment : null,
  };
}

/**
 * The item as it is when its signals were computed; otherwise a copy whose `intents`,
 * `sentiment` and `language` compute them all on the first read of any of them, once. Items are
 * stored without them (decision 0043): the matcher reads them only when some monitor of its index
 * filters on a signal, and a match copies them, so most items never pay for them.
 */
export function withSignalsOnRead<T extends SignalInput & StoredSignals>(item: T): WithSignals<T> {
  if (item.intents !== null) return item as WithSignals<T>;
  let signals: ItemSignals | undefined;
  const read = (): ItemSignals => {
    signals ??= itemSignals(item);
    return signals;
  };
  return Object.defineProperties(
    { ...item },
    {
      intents: { get: () => read().intents, enumerable: true },
      sentiment: { get: () => read().sentiment, enumerable: true },
      language: { get: () => read().language, enumerable: true },
    },
  ) as unknown as WithSignals<T>;
}
