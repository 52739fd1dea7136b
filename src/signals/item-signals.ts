import type { ItemSignals } from '../shared/signals.ts';
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

// Links, code and handles carry no tone and no language, and mislead both models.
const NOISE = /https?:\/\/\S+|`{3}[\s\S]*?`{3}|`[^`\n]*`|(?:^|\s)[@#][\w.-]+/gu;

/**
 * An item's signals, computed once when it is stored (`storeItems`): its intents (rules of our
 * own, `classifyIntents`), its language (eld) and, for English, its sentiment (wink-nlp). Nothing
 * here reads the network or the disk after the models load with the module.
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
