/**
 * A JSON text whose value is a `T`: what `JSON.parse` of it gives, typed. For JSON the database
 * wrote already (a match's `feed_json`), which an answer can carry as it is instead of parsing it
 * and writing it again.
 */
export type JsonText<T> = string & { readonly __jsonOf: T };
