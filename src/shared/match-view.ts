import type { HitField, Match } from './match.ts';

/**
 * How every alert names its item, the same in the feed, the emails and the webhooks
 * (docs/product.md, "Matches and alerts"): a post by its title with the hits in it; a comment by
 * the thread it belongs to ("on: <post title>"), linked to the comment itself.
 */
export type MatchHeadline = {
  readonly text: string;
  /** `[start, end)` offsets of the hits in `text`. */
  readonly highlights: readonly (readonly [number, number])[];
};

export function matchHeadline(
  match: Pick<Match, 'kind' | 'title' | 'titleHighlights' | 'threadTitle'>,
): MatchHeadline {
  if (match.title) return { text: match.title, highlights: match.titleHighlights };
  if (match.kind === 'comment') {
    return { text: match.threadTitle ? `on: ${match.threadTitle}` : 'A comment', highlights: [] };
  }
  return { text: 'A post', highlights: [] };
}

const FIELD_NAMES: Record<HitField, string> = { title: 'title', body: 'body', url: 'URL' };

/** Where a monitor's terms hit: "in the title", "in the title and URL"; null when unknown. */
export function describeHitFields(fields: readonly HitField[]): string | null {
  const names = fields.map((field) => FIELD_NAMES[field]);
  if (names.length === 0) return null;
  const last = names.pop();
  return `in the ${names.length > 0 ? `${names.join(', ')} and ${last}` : last}`;
}
