import type { Highlight, ItemField } from './monitor-index.ts';

export interface Range {
  readonly start: number;
  readonly end: number;
}

/** An excerpt of one field with the hits inside it, offsets relative to `text`. */
export interface Snippet {
  readonly text: string;
  readonly highlights: readonly Range[];
}

export interface ItemSnippet extends Snippet {
  /** The field cut; null for no snippet (an item of a title alone). */
  readonly field: ItemField | null;
}

export const SNIPPET_LENGTH = 300;
const ELLIPSIS = '\u2026';
const SPACE = /\s/u;

function isSpace(text: string, index: number): boolean {
  return SPACE.test(text[index] ?? '');
}

/**
 * About `maxLength` characters of `text` around the first range (a third of the room before
 * it), cut at spaces, whitespace runs collapsed to one space, "…" where text was cut. Ranges
 * must be sorted; those outside the excerpt are dropped, those across its edge are clipped.
 */
export function createSnippet(
  text: string,
  ranges: readonly Range[],
  maxLength = SNIPPET_LENGTH,
): Snippet {
  const first = ranges[0];
  let start = 0;
  let end = text.length;
  if (text.length > maxLength) {
    const hitStart = first === undefined ? 0 : Math.min(first.start, text.length);
    start = Math.max(0, hitStart - Math.floor(maxLength / 3));
    end = Math.min(text.length, start + maxLength);
    start = Math.max(0, end - maxLength);
    if (start > 0) {
      let cut = start;
      while (cut < hitStart && !isSpace(text, cut - 1)) cut++;
      if (cut < hitStart) start = cut;
    }
    if (end < text.length) {
      const hitEnd = first === undefined ? 0 : first.end;
      let cut = end;
      while (cut > Math.max(start, hitEnd) && !isSpace(text, cut)) cut--;
      if (cut > Math.max(start, hitEnd)) end = cut;
    }
  }
  // Never split a surrogate pair.
  if (start > 0 && /[\udc00-\udfff]/u.test(text[start] ?? '')) start--;
  if (end < text.length && /[\udc00-\udfff]/u.test(text[end] ?? '')) end++;

  // Collapse whitespace and keep, for every kept offset, where it lands in the snippet.
  let out = start > 0 ? ELLIPSIS : '';
  const at = new Int32Array(end - start + 1);
  let lastSpace = true;
  for (let i = start; i < end; i++) {
    at[i - start] = out.length;
    if (isSpace(text, i)) {
      if (!lastSpace) out += ' ';
      lastSpace = true;
    } else {
      out += text[i];
      lastSpace = false;
    }
  }
  if (out.endsWith(' ')) out = out.slice(0, -1);
  at[end - start] = out.length;
  const highlights: Range[] = [];
  for (const range of ranges) {
    const from = Math.max(range.start, start);
    const to = Math.min(range.end, end);
    if (from >= to) continue;
    highlights.push({ start: at[from - start]!, end: Math.min(at[to - start]!, out.length) });
  }
  if (end < text.length) out += ELLIPSIS;
  return { text: out, highlights };
}

interface SnippetSource {
  readonly title?: string | null;
  readonly body?: string | null;
  readonly url?: string | null;
}

/**
 * The snippet a match shows under the item's title: the body around its first hit; the start of
 * the body when the hits are elsewhere. Without a body: the URL when a hit is in it or there is
 * no title, else nothing: the title, shown above the snippet with its own hits, is not said
 * twice (a link post's snippet used to be its title again).
 */
export function createItemSnippet(
  item: SnippetSource,
  highlights: readonly Highlight[],
  maxLength = SNIPPET_LENGTH,
): ItemSnippet {
  const inField = (field: ItemField) => highlights.filter((h) => h.field === field);
  const body = item.body ?? '';
  if (body.trim() !== '') {
    return { field: 'body', ...createSnippet(body, inField('body'), maxLength) };
  }
  const title = item.title ?? '';
  if (item.url && (inField('url').length > 0 || title.trim() === '')) {
    return { field: 'url', ...createSnippet(item.url, inField('url'), maxLength) };
  }
  return { field: null, text: '', highlights: [] };
}
