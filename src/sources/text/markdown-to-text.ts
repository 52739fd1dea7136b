import { decodeEntities } from './html-to-text.ts';

// Reddit's `body` and `selftext` (with raw_json=1) are Markdown source. Only the marks a
// reader never sees are removed; a link keeps its address so that `example.com` finds it.

/** Reddit Markdown to plain text. */
export function markdownToText(markdown: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const raw of markdown.replace(/\r\n?/gu, '\n').split('\n')) {
    if (/^\s*(```|~~~)/u.test(raw)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) {
      lines.push(raw);
      continue;
    }
    if (/^\s*([-*_])(\s*\1){2,}\s*$/u.test(raw)) continue;
    lines.push(
      raw
        .replace(/^\s{0,3}#{1,6}\s+/u, '')
        .replace(/^(\s*>)+\s?/u, '')
        .replace(/^(\s*)[*+]\s+/u, '$1- '),
    );
  }
  const text = lines
    .join('\n')
    .replace(
      /!?\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/gu,
      (_, label: string, url: string) =>
        label.trim() === '' || label.trim() === url ? url : `${label} (${url})`,
    )
    .replace(/>!(.+?)!</gu, '$1')
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/gu, '$2')
    .replace(/(^|[^\p{L}\p{N}\\])([*_])(?=\S)(.+?)(?<=\S)\2(?![\p{L}\p{N}])/gu, '$1$3')
    .replace(/~~(?=\S)(.+?)(?<=\S)~~/gu, '$1')
    .replace(/\^\(([^)]*)\)/gu, '$1')
    .replace(/(^|\s)\^(?=\S)/gu, '$1')
    .replace(/`([^`\n]+)`/gu, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!>~^|])/gu, '$1');
  return decodeEntities(text)
    .replace(/[ \t]+\n/gu, '\n')
    .replace(/\n{3,}/gu, '\n\n')
    .trim();
}
