import { eld } from 'eld/small';

// eld (Efficient Language Detector) with its small n-gram database, which the package ships: 60
// languages, ISO 639-1 codes, about 0.04 ms for a 700-character text and 50 MB of memory.

/** Fewer letters than this tell too little: the language is left unknown. */
const MIN_LETTERS = 12;
const LANGUAGE_CHARS = 1000;
const NOT_LETTERS = /\P{L}+/gu;

/** The ISO 639-1 code of a text's language, or null when the detector is not sure. */
export function languageOf(text: string): string | null {
  const sample = text.slice(0, LANGUAGE_CHARS);
  if (sample.replace(NOT_LETTERS, '').length < MIN_LETTERS) return null;
  const result = eld.detect(sample);
  return result.language !== '' && result.isReliable() ? result.language : null;
}
