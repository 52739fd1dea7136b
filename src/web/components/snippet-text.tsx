import { highlightSegments } from '../../shared/highlight-segments.ts';

/**
 * A match's snippet with its hits marked. Untrusted text: every piece is a React text node
 * inside a span or a mark, never HTML.
 */
export function SnippetText({
  text,
  highlights,
}: {
  text: string;
  highlights: readonly (readonly [number, number])[];
}) {
  let offset = 0;
  return (
    <>
      {highlightSegments(text, highlights).map((segment) => {
        const key = offset;
        offset += segment.text.length;
        return segment.hit ? (
          <mark
            key={key}
            data-testid="hit"
            className="rounded-sm bg-amber-200 px-0.5 text-foreground dark:bg-amber-500/30"
          >
            {segment.text}
          </mark>
        ) : (
          <span key={key}>{segment.text}</span>
        );
      })}
    </>
  );
}
