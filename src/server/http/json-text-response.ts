import type { Context, TypedResponse } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JsonText } from '../../platform/json-text.ts';

/**
 * `c.json(value, status, headers)` for a value that is JSON text already: the text is the body,
 * and the response is typed as the JSON of its value, so an OpenAPI route's answer is still
 * checked against its schema.
 */
export function jsonTextResponse<T, S extends ContentfulStatusCode>(
  c: Context,
  text: JsonText<T>,
  status: S,
  headers: Record<string, string> = {},
): Response & TypedResponse<T, S, 'json'> {
  const response = c.body(text, status, { ...headers, 'Content-Type': 'application/json' });
  // The brand is the proof: a JsonText<T> is the text of a T.
  return response as unknown as Response & TypedResponse<T, S, 'json'>;
}
