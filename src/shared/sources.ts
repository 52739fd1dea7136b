/**
 * The sites Earshot reads (docs/product.md, "Sources"). The one list of source names: the query
 * language's `site:`, normalised items, monitors, matches and the web app all use it.
 */
export const SOURCE_NAMES = ['hackernews', 'reddit', 'lobsters'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

/** How a source is named to people. */
export const SOURCE_LABELS: Record<SourceName, string> = {
  hackernews: 'Hacker News',
  reddit: 'Reddit',
  lobsters: 'Lobsters',
};

export function isSourceName(value: string): value is SourceName {
  return (SOURCE_NAMES as readonly string[]).includes(value);
}
