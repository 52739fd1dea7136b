/**
 * Text a user types that others (or the user's own emails and webhooks) show as one line: a
 * monitor's query and name, a person's names. C0 and C1 controls (NUL, CR/LF, tab, DEL…) and the
 * bidirectional formatting characters (LRM/RLM/ALM, the embeddings and overrides U+202A–U+202E,
 * the isolates U+2066–U+2069) are refused: a NUL cannot be stored by PostgreSQL, a line break
 * starts a new line in a plain-text email, and a bidi override makes a name lie about what it says.
 * The embedded identity service refuses the same characters in its attributes.
 */
const CONTROL_OR_BIDI = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

export const PLAIN_TEXT_MESSAGE = 'must not contain control or bidirectional formatting characters';

/** True when `value` holds none of the characters above. */
export function isPlainText(value: string): boolean {
  return !CONTROL_OR_BIDI.test(value);
}
