/** A piece of a snippet or title: plain text or a hit. */
export type Segment = { text: string; hit: boolean };

/**
 * Cuts `text` at the `[start, end)` ranges of its hits, so the feed, the emails and the webhooks
 * mark each hit their own way (the feed as a text span, never HTML). Ranges out of bounds,
 * reversed or overlapping are clamped or merged, so bad offsets can never hide or repeat text.
 */
export function highlightSegments(
  text: string,
  ranges: readonly (readonly [number, number])[],
): Segment[] {
  const sorted = ranges
    .map(([start, end]) => [Math.max(0, Math.min(start, text.length)), Math.min(end, text.length)])
    .filter(([start, end]) => (end as number) > (start as number))
    .sort((a, b) => (a[0] as number) - (b[0] as number)) as [number, number][];
  const segments: Segment[] = [];
  let at = 0;
  for (const [start, end] of sorted) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    if (from > at) segments.push({ text: text.slice(at, from), hit: false });
    segments.push({ text: text.slice(from, end), hit: true });
    at = end;
  }
  if (at < text.length) segments.push({ text: text.slice(at), hit: false });
  return segments;
}
